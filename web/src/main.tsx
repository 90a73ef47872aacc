// Entry point: picks the page's language and mounts the view the URL names
// (classroom/Root.tsx). A view that runs the simulator has its engine's worker started first,
// so that the wasm module compiles while the page renders; the simulations run in the worker.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { isBare, Root } from './classroom/Root';
import { startEngineEarly, startFirstRunEarly } from './engine/bridge';
import { initLang } from './i18n/current';
import './shared/styles.css';
import './shared/views.css';

// Which views run the simulator, as Root.tsx decides: a lesson, or any view but about, the
// list of lessons and Model vs Linux (which has an engine of its own). The landing (a bare
// link) shows its first run prerendered and starts the engine once it is interactive.
const params = new URLSearchParams(location.search);
const view = params.get('view');
if (isBare(params)) {
  if (!startFirstRunEarly()) startEngineEarly();
} else if (
  params.get('lesson') !== null ||
  (view !== 'about' && view !== 'lessons' && view !== 'conform')
)
  startEngineEarly();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
void initLang(location.search, navigator.languages ?? [navigator.language]).then(() =>
  createRoot(root).render(
    <StrictMode>
      <Root />
    </StrictMode>,
  ),
);
