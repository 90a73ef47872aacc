// "Copy embed code": the two ways to put the player on another site, for a configuration
// (app/ShareEmbed.tsx writes them; e2e/embed.spec.ts opens them). No React.

import { embedQuery, type EmbedConfig } from './embedParams';

/** Height the snippets start with; the player then sets its own (postMessage). */
export const INITIAL_HEIGHT_PX = 480;

/** The message the embed posts to its parent when its height changes. */
export interface ResizeMessage {
  sendpath: 'resize';
  height: number;
}

export function isResizeMessage(d: unknown): d is ResizeMessage {
  return (
    typeof d === 'object' &&
    d !== null &&
    (d as ResizeMessage).sendpath === 'resize' &&
    typeof (d as ResizeMessage).height === 'number'
  );
}

const escapeAttr = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The embed URL of `c` on the site whose root is `root` (where index.html is). */
export function embedUrl(root: URL, c: EmbedConfig): string {
  return new URL(`embed/${embedQuery(c)}`, root).href;
}

/**
 * An `<iframe>` in a strict sandbox (scripts only: the player gets an opaque origin, no
 * storage, no access to the page), lazy-loaded, with the few lines of script that let it set
 * its own height.
 */
export function iframeSnippet(root: URL, c: EmbedConfig, title: string): string {
  return [
    `<iframe src="${escapeAttr(embedUrl(root, c))}" title="${escapeAttr(title)}"`,
    `  loading="lazy" sandbox="allow-scripts" referrerpolicy="no-referrer"`,
    `  style="width: 100%; height: ${INITIAL_HEIGHT_PX}px; border: 0"></iframe>`,
    `<script>`,
    `addEventListener('message', function (e) {`,
    `  var d = e.data;`,
    `  if (!d || d.sendpath !== 'resize' || typeof d.height !== 'number') return;`,
    `  document.querySelectorAll('iframe').forEach(function (f) {`,
    `    if (f.contentWindow === e.source) f.style.height = Math.min(Math.max(d.height, 120), 4000) + 'px';`,
    `  });`,
    `});`,
    `</script>`,
  ].join('\n');
}

/** The same as a web component: one script, one element. */
export function componentSnippet(root: URL, c: EmbedConfig): string {
  const attrs: string[] = [`scenario="${escapeAttr(c.scenario)}"`];
  if (c.variant !== null) attrs.push(`variant="${escapeAttr(c.variant)}"`);
  if (c.sets.length > 0) attrs.push(`set="${escapeAttr(c.sets.join(';'))}"`);
  if (c.fromUs !== null && c.toUs !== null)
    attrs.push(`from-us="${c.fromUs}"`, `to-us="${c.toUs}"`);
  if (c.tUs !== null) attrs.push(`t-us="${c.tUs}"`);
  if (c.autoplay) attrs.push('autoplay');
  if (c.theme !== 'auto') attrs.push(`theme="${c.theme}"`);
  attrs.push(`lang="${c.lang}"`);
  const q = new URLSearchParams(embedQuery(c));
  if (q.has('panels')) attrs.push(`panels="${escapeAttr(q.get('panels')!)}"`);
  if (q.has('chart')) attrs.push(`chart="${escapeAttr(q.get('chart')!)}"`);
  return [
    `<script type="module" src="${escapeAttr(new URL('sendpath-player.js', root).href)}"></script>`,
    `<sendpath-player ${attrs.join(' ')}></sendpath-player>`,
  ].join('\n');
}
