// The "Copy embed code" button. The dialog (ShareEmbed.tsx, with the embed's parameters and
// snippets) is loaded the first time it is pressed, not with the page.

import { lazy, Suspense, useState } from 'react';

import { useText } from '../shared/useLang';

const ShareEmbed = lazy(() => import('./ShareEmbed').then((m) => ({ default: m.ShareEmbed })));

export function ShareEmbedButton() {
  const t = useText();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        {t.share.open}
      </button>
      {open && (
        <Suspense fallback={null}>
          <ShareEmbed onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
