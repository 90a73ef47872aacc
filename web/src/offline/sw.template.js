// The service worker of the built site (dist/sw.js): the site keeps working offline after the
// first visit. scripts/vite-plugin-offline.ts fills in FILES (every file of the build, relative
// to this script; the recorded samples excepted) and BUILD (an id that changes with their
// contents, also written into each page of the build as <meta name="sendpath-build">).
//
// - install: fetch every file of FILES past the HTTP cache (`cache: 'no-cache'`) into this
//   build's cache, and check that each page is this build's (its sendpath-build meta): a host or
//   proxy that still serves the previous index.html fails the install (the browser tries again
//   later) rather than caching an old page beside new assets. All files arrive or none is kept.
// - activate: delete this site's caches of older builds (only this scope's: another copy of the
//   site under another path of the same origin keeps its own).
// - fetch: only the build's own files are answered from the cache (a page, with any query, is
//   its cached index.html), and the recorded samples (samples/), cached when first opened.
//   Anything else, same-origin or not, goes to the network untouched and is never stored.
//   Responses are stored without their Vary header and matched ignoring Vary: a host that sends
//   `Vary: Origin` (or `Vary: *`) must not make the cache miss, or refuse to store.
//
// A new build waits until no tab runs the old one (no skipWaiting), so an open page never
// loses the lazily loaded chunks it was built with.

const FILES = /*FILES*/ [];
const BUILD = /*BUILD*/ 'dev';

const scope = () => self.registration.scope;
/** This site's caches are named `sendpath <scope> <build>`. */
const prefix = () => `sendpath ${scope()} `;
const cacheName = () => prefix() + BUILD;
/** Files fetched only when a reader opens them: cached then. */
const ON_DEMAND = /^samples\/[^/]+$/;
const PAGES = FILES.filter((f) => f === 'index.html' || f.endsWith('/index.html'));
const MATCH = { ignoreVary: true };

/** `res` as the cache keeps it: without Vary. */
async function storable(res) {
  if (!res.headers.has('vary')) return res;
  const headers = new Headers(res.headers);
  headers.delete('vary');
  return new Response(await res.blob(), {
    status: res.status,
    statusText: res.statusText,
    headers,
  });
}

async function install() {
  const name = cacheName();
  try {
    const cache = await caches.open(name);
    await Promise.all(
      FILES.map(async (f) => {
        const url = new URL(f, scope()).href;
        const res = await fetch(new Request(url, { cache: 'no-cache' }));
        if (!res.ok) throw new Error(`${f}: HTTP ${res.status}`);
        if (PAGES.includes(f)) {
          const html = await res.clone().text();
          if (!html.includes(`<meta name="sendpath-build" content="${BUILD}">`))
            throw new Error(`${f} is not build ${BUILD} (an older page is still served)`);
        }
        await cache.put(url, await storable(res));
      }),
    );
  } catch (err) {
    await caches.delete(name);
    throw err;
  }
}

self.addEventListener('install', (event) => event.waitUntil(install()));

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys
            // This scope's older builds, and the caches of the worker before scoped names.
            .filter(
              (k) =>
                (k.startsWith(prefix()) && k !== cacheName()) || /^sendpath-[0-9a-f]{16}$/.test(k),
            )
            .map((k) => caches.delete(k)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

/** The build file a request names (relative to the scope), or null. */
function buildFile(req) {
  const url = new URL(req.url);
  const root = new URL(scope());
  if (url.origin !== root.origin || !url.pathname.startsWith(root.pathname)) return null;
  let path;
  try {
    path = decodeURIComponent(url.pathname.slice(root.pathname.length));
  } catch {
    return null;
  }
  if (req.mode === 'navigate' && (path === '' || path.endsWith('/'))) path += 'index.html';
  if (FILES.includes(path)) return { path, page: PAGES.includes(path) };
  if (ON_DEMAND.test(path)) return { path, onDemand: true };
  return null;
}

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const file = buildFile(req);
  if (!file) return;
  const url = new URL(file.path, scope()).href;
  event.respondWith(
    caches.open(cacheName()).then(async (cache) => {
      // Pages differ only by their query (the URL state); assets have hashed names.
      const hit = await cache.match(url, MATCH);
      if (hit) return hit;
      const res = await fetch(req);
      if (file.onDemand && res.ok && res.type === 'basic')
        await cache.put(url, await storable(res.clone()));
      return res;
    }),
  );
});

// The page asks which build this worker serves.
self.addEventListener('message', (event) => {
  if (event.data === 'sendpath:cache')
    event.source?.postMessage({ cache: cacheName(), build: BUILD });
});
