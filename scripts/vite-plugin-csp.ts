// `vite build`: puts the site's Content-Security-Policy in every page of the build (index.html
// and embed/index.html) as a <meta http-equiv> tag, the only way a static host without header
// control (GitHub Pages) can state one. The policy lets a page load and connect to its own
// origin only:
//
// - script-src 'self' 'wasm-unsafe-eval': the build's own modules, and compiling the engine's
//   WebAssembly (which CSP otherwise treats as eval);
// - worker-src 'self' blob:: the engine's and the capture reader's workers; the embed in an
//   iframe sandboxed without allow-same-origin has an opaque origin and starts its engine from a
//   blob that imports the worker module (engine/bridge.ts), and that blob worker inherits this
//   policy;
// - style-src 'self': the build's stylesheets (React sets style attributes through the CSSOM,
//   which CSP allows);
// - img-src 'self' data:: the favicon, and the embed's empty `data:,` icon;
// - connect-src 'self': the wasm, the scenarios, the recorded samples and same-origin capture
//   links. A capture link to another origin is fetched by the capture reader's worker, which a
//   <meta> policy does not reach; that worker fetches another origin only after the reader
//   confirms it (app/store.ts);
// - object-src 'none', base-uri 'self', form-action 'none'.
//
// The dev server (`npm start`) has no policy: Vite's client and React's refresh preamble are
// inline scripts, and its hot reload talks over a WebSocket. docs/hosting.md gives the same
// policy as an HTTP header for hosts that can send one (a header also covers the workers).

import type { Plugin } from 'vite';

/** The site's policy, one directive per entry. */
export const CSP_DIRECTIVES: readonly string[] = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'none'",
];

export const CSP = CSP_DIRECTIVES.join('; ');

export function csp(): Plugin {
  return {
    name: 'sendpath-csp',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      // Right after <meta charset>, which must stay within the page's first 1024 bytes, and
      // before any script, style or link the policy must govern.
      handler(html, ctx) {
        const out = html.replace(
          /(<meta charset="UTF-8" \/>)(\s*)/,
          `$1$2<meta http-equiv="Content-Security-Policy" content="${CSP}" />$2`,
        );
        if (out === html) throw new Error(`${ctx.filename}: no <meta charset="UTF-8" /> to follow`);
        return out;
      },
    },
  };
}
