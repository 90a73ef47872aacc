// Entry point: picks the page's language and mounts the view the URL names
// (classroom/Root.tsx). Nothing else runs here; the engine starts in its Worker.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { Root } from './classroom/Root';
import { initLang } from './i18n/current';
import './shared/styles.css';
import './shared/views.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
void initLang(location.search, navigator.languages ?? [navigator.language]).then(() =>
  createRoot(root).render(
    <StrictMode>
      <Root />
    </StrictMode>,
  ),
);
