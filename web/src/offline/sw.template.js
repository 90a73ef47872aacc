// The service worker of the built site (dist/sw.js): the site keeps working offline after the
// first visit. scripts/vite-plugin-offline.ts fills in FILES (every file of the build, relative
// to this script) and CACHE (a name that changes with their contents).
//
// - install: fetch and cache every file of FILES; the worker only installs if all arrive.
// - activate: delete the caches of older builds.
// - fetch: same-origin GET requests are answered from the cache, else from the network (and
//   cached: the recorded samples, fetched on demand). A page (navigation) with a query string,
//   e.g. ?lesson=autocorking&step=3, is the cached page without it.
//
// A new build waits until no tab runs the old one (no skipWaiting), so an open page never
// loses the lazily loaded chunks it was built with.

const FILES = /*FILES*/ [];
const CACHE = /*CACHE*/ 'dev';

const scope = () => self.registration.scope;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll(FILES.map((f) => new URL(f, scope()).href))),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys.filter((k) => k.startsWith('sendpath-') && k !== CACHE).map((k) => caches.delete(k)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET' || new URL(req.url).origin !== self.location.origin) return;
  event.respondWith(
    caches.open(CACHE).then(async (cache) => {
      // Pages differ only by their query (the URL state); assets have hashed names.
      const page = req.mode === 'navigate';
      let hit = await cache.match(req, { ignoreSearch: page });
      if (!hit && page) {
        const url = new URL(req.url);
        if (url.pathname.endsWith('/'))
          hit = await cache.match(new URL('index.html', url.origin + url.pathname).href);
      }
      if (hit) return hit;
      const res = await fetch(req);
      if (res.ok && res.type === 'basic') await cache.put(req, res.clone());
      return res;
    }),
  );
});

// The page asks which build this worker serves (the version string in the page's footer).
self.addEventListener('message', (event) => {
  if (event.data === 'sendpath:cache') event.source?.postMessage({ cache: CACHE });
});
