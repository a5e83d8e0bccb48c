// Service worker: caches the app shell so the app starts offline; the API and the stream are never cached.
/// <reference lib="webworker" />
declare const self: ServiceWorkerGlobalScope;

const CACHE = 'svc-shell-v3';
// The tables worker and its wasm too: the phone's tables open offline.
const SHELL = [
  './',
  'index.html',
  'app.js',
  'app.css',
  'icon.svg',
  'icon-192.png',
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

// Web Push (issue 17): the server's buzz names the agent and the first line; one notification per thread
// (tag), replaced rather than stacked. `revoked` is the silent list refresh of doc2: no notification.
interface BuzzPayload {
  kind: 'message' | 'revoked';
  agent_id: string;
  title?: string;
  body?: string;
  tag?: string;
  url?: string;
  count?: number;
}

function readPush(event: PushEvent): BuzzPayload | null {
  try {
    return (event.data?.json() as BuzzPayload | undefined) ?? null;
  } catch {
    return null;
  }
}

async function tellClients(message: Record<string, unknown>): Promise<void> {
  for (const client of await self.clients.matchAll({ type: 'window', includeUncontrolled: true })) {
    client.postMessage(message);
  }
}

self.addEventListener('push', (event) => {
  const push = readPush(event);
  if (!push) return;
  if (push.kind === 'revoked') {
    event.waitUntil(tellClients({ type: 'svc-revoked', agent_id: push.agent_id }));
    return;
  }
  // The thread inside this worker's own app, wherever the app is served from.
  const url = new URL(`./#/a/${encodeURIComponent(push.agent_id)}`, self.registration.scope).href;
  event.waitUntil(
    self.registration.showNotification(push.title ?? 'Screen Service', {
      body: push.body ?? '',
      tag: push.tag ?? `thread-${push.agent_id}`,
      // A fresh buzz alerts again; a collapsed burst's update replaces the notification quietly.
      renotify: (push.count ?? 1) === 1,
      // A PNG: Android draws no SVG in a notification.
      icon: new URL('icon-192.png', self.registration.scope).href,
      data: { url, agent_id: push.agent_id },
    } as NotificationOptions),
  );
});

/** Opens the notification's thread: in an open window of the app when there is one, else a new window. */
async function openThread(url: string): Promise<void> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const app = windows.find((w) => w.url.startsWith(self.registration.scope));
  if (app) {
    await app.navigate(url).catch(() => null);
    await app.focus().catch(() => null);
    return;
  }
  await self.clients.openWindow(url);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = (event.notification.data as { url?: string } | null)?.url ?? self.registration.scope;
  event.waitUntil(openThread(url));
});
