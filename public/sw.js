/* global self, caches, fetch, URL, Request, Response */
// The kiosk's offline shell (registered by the kiosk screen only). Pages: network first, the
// last good copy when the network is gone; hashed assets: cache first (they never change).
// The API is never touched: nothing is queued, a kiosk offline says "Sem conexão".
const CACHE = 'pdv-shell-v1';
const SHELL = '/__shell';

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.add(new Request('/quiosque')).then(() => cache.match('/quiosque')))
      .then((res) => res && caches.open(CACHE).then((c) => c.put(SHELL, res)))
      .catch(() => undefined)
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

// The page lists the assets it already loaded (before this worker controlled it).
self.addEventListener('message', (event) => {
  const urls = Array.isArray(event.data?.cache) ? event.data.cache : [];
  const own = urls.filter((u) => typeof u === 'string' && u.startsWith('/assets/'));
  event.waitUntil(
    caches
      .open(CACHE)
      .then((c) => c.addAll(own))
      .catch(() => undefined),
  );
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== 'GET' || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/api/')) return;
  if (req.mode === 'navigate') {
    event.respondWith(
      fetch(req)
        .then((res) => {
          if (res.ok) {
            const copy = res.clone();
            void caches.open(CACHE).then((c) => c.put(SHELL, copy));
          }
          return res;
        })
        .catch(() => caches.match(SHELL).then((hit) => hit ?? Response.error())),
    );
    return;
  }
  if (url.pathname.startsWith('/assets/')) {
    event.respondWith(
      caches.match(req).then(
        (hit) =>
          hit ??
          fetch(req).then((res) => {
            if (res.ok) {
              const copy = res.clone();
              void caches.open(CACHE).then((c) => c.put(req, copy));
            }
            return res;
          }),
      ),
    );
  }
});
