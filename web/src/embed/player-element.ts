// <sendpath-player>: the embed as a web component, from one script file (dist/sendpath-player.js).
//
//   <script type="module" src="https://…/sendpath/sendpath-player.js"></script>
//   <sendpath-player scenario="autocorking" variant="off" set="app.flows=1" autoplay
//                    lang="zh-CN" theme="dark" panels="pipeline,player" chart="sizes">
//   </sendpath-player>
//
// The element holds the embed (/embed/ beside this script) in a sandboxed iframe, so the
// player's scripts and styles never touch the host page. It creates the iframe only when the
// element comes near the viewport, sizes it to the height the player reports (postMessage),
// and never takes focus or scrolls the page. Self-contained: this file imports nothing.

/** Attribute -> embed URL parameter. `set` holds `;`-separated overrides. */
const ATTRS: Record<string, string> = {
  scenario: 'scenario',
  lesson: 'lesson',
  step: 'step',
  variant: 'variant',
  'from-us': 'from_us',
  'to-us': 'to_us',
  't-us': 't_us',
  theme: 'theme',
  lang: 'lang',
  panels: 'panels',
  chart: 'chart',
};

/** Where the embed is: beside this script. */
const EMBED_BASE = new URL('embed/', import.meta.url.toString());

const MIN_HEIGHT_PX = 120;
const MAX_HEIGHT_PX = 4000;

class SendpathPlayer extends HTMLElement {
  static observedAttributes = [...Object.keys(ATTRS), 'set', 'autoplay'];

  private frame: HTMLIFrameElement | null = null;
  private seen: IntersectionObserver | null = null;
  private readonly onMessage = (e: MessageEvent) => {
    const d = e.data as { sendpath?: unknown; height?: unknown } | null;
    if (!this.frame || e.source !== this.frame.contentWindow) return;
    if (!d || d.sendpath !== 'resize' || typeof d.height !== 'number') return;
    const h = Math.min(Math.max(Math.ceil(d.height), MIN_HEIGHT_PX), MAX_HEIGHT_PX);
    this.frame.style.height = `${h}px`;
  };

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    style.textContent =
      ':host{display:block;min-height:240px}iframe{display:block;width:100%;height:480px;border:0}';
    root.append(style);
  }

  /** The embed URL the attributes describe. */
  src(): string {
    const q = new URLSearchParams();
    for (const [attr, param] of Object.entries(ATTRS)) {
      const v = this.getAttribute(attr);
      if (v !== null) q.set(param, v);
    }
    for (const s of (this.getAttribute('set') ?? '').split(';'))
      if (s.trim()) q.append('set', s.trim());
    if (this.hasAttribute('autoplay')) q.set('autoplay', '1');
    return new URL(`?${q.toString()}`, EMBED_BASE).href;
  }

  connectedCallback(): void {
    window.addEventListener('message', this.onMessage);
    if (this.frame) return;
    // Nothing is loaded until the element is near the viewport.
    this.seen = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          this.seen?.disconnect();
          this.seen = null;
          this.load();
        }
      },
      { rootMargin: '200px' },
    );
    this.seen.observe(this);
  }

  disconnectedCallback(): void {
    window.removeEventListener('message', this.onMessage);
    this.seen?.disconnect();
    this.seen = null;
  }

  attributeChangedCallback(): void {
    if (this.frame) this.frame.src = this.src();
  }

  private load(): void {
    const f = document.createElement('iframe');
    f.title = this.getAttribute('title') ?? 'sendpath: the Linux TCP send path, simulated';
    f.setAttribute('sandbox', 'allow-scripts');
    f.setAttribute('referrerpolicy', 'no-referrer');
    f.src = this.src();
    this.frame = f;
    this.shadowRoot!.append(f);
  }
}

if (!customElements.get('sendpath-player'))
  customElements.define('sendpath-player', SendpathPlayer);
