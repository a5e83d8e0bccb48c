// Service worker: caches the app shell so the app starts offline; the API and the stream are never cached.
/// <reference lib="webworker" />
declare const self: ServiceWorkerGlobalScope;

const CACHE = 'svc-shell-v2';
// The tables worker and its wasm too: the phone's tables open offline.
const SHELL = [
  './',
  'index.html',
  'app.js',
  'app.css',
  'icon.svg',
  'manifest.webmanifest',
  'offline.html',
  'tables-worker.js',
  'sqlite3.wasm',
];

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
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

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (
    event.request.method !== 'GET' ||
    url.origin !== self.location.origin ||
    url.pathname.includes('/functions/')
  )
    return;
  if (event.request.mode === 'navigate') {
    // Network first, so a new build shows at once; the cached shell (or the offline page) when there is no network.
    event.respondWith(
      fetch(event.request).catch(
        async () =>
          (await caches.match('index.html')) ?? (await caches.match('offline.html')) ?? Response.error(),
      ),
    );
    return;
  }
  event.respondWith(
    caches.match(event.request).then(
      (hit) =>
        hit ??
        fetch(event.request).then((res) => {
          if (res.ok && SHELL.some((p) => url.pathname.endsWith(p))) {
            const copy = res.clone();
            void caches.open(CACHE).then((cache) => cache.put(event.request, copy));
          }
          return res;
        }),
    ),
  );
});
