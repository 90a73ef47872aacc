// Entry point of /embed/: the compact player another site puts in an iframe (or through
// <sendpath-player>). Its configuration is all in the URL (shared/embedParams.ts). It loads the engine
// only when the reader presses play (or, with autoplay, once it is visible).
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { initLang } from '../i18n/current';
import '../shared/styles.css';
import '../shared/views.css';
import './embed.css';
import { EmbedApp } from './EmbedApp';

const root = document.getElementById('root');
if (!root) throw new Error('embed/index.html has no #root element');
void initLang(location.search, navigator.languages ?? [navigator.language]).then(() =>
  createRoot(root).render(
    <StrictMode>
      <EmbedApp />
    </StrictMode>,
  ),
);
