// The static build's service worker: every file of the app kept in the browser at install, so that once loaded
// pacw starts and plays with the network off. `pacw static` writes the list, relative to this file so that the build
// works from any folder of a host, and the version (crates/server/src/offline.rs); the server never registers it.

const VERSION = /* VERSION */ 'dev';
const FILES = /* FILES */ [];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(VERSION).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n !== VERSION).map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

/// A kept file answers first (a page asked for without its slash by its folder, a file with a query by its path);
/// what is not kept goes to the network.
self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(VERSION);
    const kept = await cache.match(url.pathname) || await cache.match(`${url.pathname}/`);
    return kept || fetch(event.request);
  })());
});
