// The Web Worker that reads the landing page's prerendered first run (firstRun.ts): it fetches
// the asset at the URL it is sent, unzips and decodes it, derives the run model as the engine's
// worker does after `simulate`, posts it (`FirstRunMessage`) and is done. It carries no wasm:
// the engine's worker starts once the page is interactive (app/store.ts).

import { transferables } from '../model/trace';
import { readFirstRun, type FirstRunMessage } from './firstRun';

async function read(url: string): Promise<FirstRunMessage> {
  const response = await fetch(url);
  if (!response.ok || !response.body) throw new Error(`${url}: HTTP ${response.status}`);
  return { ok: true, run: await readFirstRun(response.body) };
}

self.addEventListener('message', (event: MessageEvent<string>) => {
  read(event.data).then(
    (message) => postMessage(message, { transfer: transferables(message) }),
    (err: unknown) => postMessage({ ok: false, error: String(err) } satisfies FirstRunMessage),
  );
});
