// Service worker: caches the app shell so the app starts offline; the person's reads (agent list, thread pages,
// photos seen) are kept on the device for offline reading (ADR 0277); kept answers go by Background Sync.
/// <reference lib="webworker" />
import {
  DEVICE_CACHE,
  flushAnswers,
  keptPhoto,
  keptRead,
  type Post,
  readThrough,
  rememberedToken,
} from '@screen-service/phone-offline';
import { MOUNTS } from '@screen-service/registry/mounts';

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
      // The person's kept reads are not the shell's: only sign-out deletes them.
      .then((keys) =>
        Promise.all(
          keys.filter((k) => k !== CACHE && !k.startsWith(DEVICE_CACHE)).map((k) => caches.delete(k)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  const kept =
    event.request.method === 'GET' && url.origin === self.location.origin && keptRead(url, MOUNTS.app);
  if (kept) {
    event.respondWith(kept === 'photo' ? keptPhoto(event.request) : readThrough(event.request));
    return;
  }
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
// Issue 39: a one-tap screen's buzz carries actions and a single-use answer token; an action answers from
// here without opening the app and the notification then reads "Sent: <value>". `stale` quietly replaces
// the notification of a screen answered elsewhere.
interface BuzzAction {
  action: string;
  title: string;
  value: string | number | boolean;
}
interface BuzzPayload {
  kind: 'message' | 'revoked' | 'stale';
  agent_id: string;
  title?: string;
  body?: string;
  tag?: string;
  url?: string;
  count?: number;
  screen_id?: string;
  actions?: BuzzAction[];
  answer?: { url: string; token: string; expires_at: string };
  urgent?: boolean;
}
/** What a notification keeps for its click: where it opens, and how its actions answer. */
interface NoticeData {
  url: string;
  agent_id: string;
  screen_id?: string;
  actions?: BuzzAction[];
  answer?: BuzzPayload['answer'];
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

/** The thread (scrolled to the screen) inside this worker's own app, wherever the app is served from. */
function appUrl(agentId: string, screenId?: string): string {
  const screen = screenId ? `?screen=${encodeURIComponent(screenId)}` : '';
  return new URL(`./#/a/${encodeURIComponent(agentId)}${screen}`, self.registration.scope).href;
}

const ICON = () => new URL('icon-192.png', self.registration.scope).href;

/** The actions the platform can show: all of them, or none (a screen with more choices opens the app). */
function fitActions(actions: BuzzAction[] | undefined): BuzzAction[] {
  const max = (Notification as unknown as { maxActions?: number }).maxActions ?? 0;
  return actions && actions.length > 0 && actions.length <= max ? actions : [];
}

/**
 * Shows (or replaces, by tag) a notification; `quiet` ones never alert and carry no actions; an `urgent` one
 * (time-sensitive, ADR 0306) stays on screen until the person acts on it.
 */
function show(
  title: string,
  body: string,
  tag: string,
  data: NoticeData,
  alert: boolean,
  urgent = false,
): Promise<void> {
  const actions = data.answer ? fitActions(data.actions) : [];
  return self.registration.showNotification(title, {
    body,
    tag,
    // A fresh buzz alerts again; an update (a collapsed burst, a "Sent", a stale screen) replaces quietly.
    renotify: alert,
    silent: !alert,
    requireInteraction: urgent && alert,
    // A PNG: Android draws no SVG in a notification.
    icon: ICON(),
    actions: actions.map((a) => ({ action: a.action, title: a.title })),
    data: actions.length > 0 ? data : { url: data.url, agent_id: data.agent_id, screen_id: data.screen_id },
  } as NotificationOptions);
}

/** Replaces a thread's notification when it still shows the screen that was answered elsewhere. */
async function staleNotice(push: BuzzPayload): Promise<void> {
  const tag = push.tag ?? `thread-${push.agent_id}`;
  const [current] = await self.registration.getNotifications({ tag });
  // A newer notification of the thread (another screen, a chat line) stays as it is.
  if (current && (current.data as NoticeData | null)?.screen_id !== push.screen_id) return;
  const url = appUrl(push.agent_id, push.screen_id);
  await show(
    push.title ?? 'Screen Service',
    push.body ?? 'Answered',
    tag,
    { url, agent_id: push.agent_id },
    false,
  );
}

self.addEventListener('push', (event) => {
  const push = readPush(event);
  if (!push) return;
  if (push.kind === 'revoked') {
    event.waitUntil(tellClients({ type: 'svc-revoked', agent_id: push.agent_id }));
    return;
  }
  if (push.kind === 'stale') {
    event.waitUntil(staleNotice(push));
    return;
  }
  const data: NoticeData = {
    url: appUrl(push.agent_id, push.screen_id),
    agent_id: push.agent_id,
    ...(push.screen_id ? { screen_id: push.screen_id } : {}),
    ...(push.actions ? { actions: push.actions } : {}),
    ...(push.answer ? { answer: push.answer } : {}),
  };
  const tag = push.tag ?? `thread-${push.agent_id}`;
  const alert = (push.count ?? 1) === 1;
  event.waitUntil(
    show(push.title ?? 'Screen Service', push.body ?? '', tag, data, alert, push.urgent === true),
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

/**
 * Sends an action's answer with the notification's token. Sent: the notification reads "Sent: <value>".
 * Refused for good (already answered, expired, withdrawn): it says so and a tap opens the screen. Failed
 * (offline, a server error): the notification comes back as it was, actions and all, so a tap retries.
 */
async function answerFrom(n: Notification, action: string): Promise<void> {
  const data = n.data as NoticeData;
  const choice = data.actions?.find((a) => a.action === action);
  if (!choice || !data.answer) return openThread(data.url);
  const plain: NoticeData = {
    url: data.url,
    agent_id: data.agent_id,
    ...(data.screen_id ? { screen_id: data.screen_id } : {}),
  };
  let res: Response | null = null;
  try {
    res = await fetch(data.answer.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: data.answer.token, screen_id: data.screen_id, value: choice.value }),
    });
  } catch {
    res = null;
  }
  if (res?.ok) {
    const sent =
      ((await res.json().catch(() => null)) as { sent?: string } | null)?.sent ?? `Sent: ${choice.title}`;
    await show(n.title, sent, n.tag, plain, false);
    await tellClients({ type: 'svc-answered', agent_id: data.agent_id, screen_id: data.screen_id });
  } else if (res && res.status < 500 && res.status !== 429) {
    const said = res.status === 409 ? 'Already answered' : 'Open the app to answer';
    await show(n.title, said, n.tag, plain, false);
  } else {
    await show(n.title, n.body, n.tag, data, false);
  }
}

self.addEventListener('notificationclick', (event) => {
  const n = event.notification;
  if (event.action) {
    event.waitUntil(answerFrom(n, event.action));
    return;
  }
  n.close();
  const url = (n.data as { url?: string } | null)?.url ?? self.registration.scope;
  event.waitUntil(openThread(url));
});

/** The person's API as the worker calls it: the token the app kept, errors with the service's status. */
function workerPost(token: string): Post {
  return async (path, body, raw, headers) => {
    const res = await fetch(`${MOUNTS.app}${path}`, {
      method: 'POST',
      headers: {
        ...headers,
        authorization: `Bearer ${token}`,
        'content-type': raw ? raw.type || 'application/octet-stream' : 'application/json',
      },
      body: raw ?? JSON.stringify(body),
    });
    const data = (await res.json().catch(() => ({}))) as { message?: string };
    if (!res.ok)
      throw Object.assign(new Error(data.message ?? `The server answered ${res.status}.`), {
        status: res.status,
      });
    return data;
  };
}

// Background Sync (where the browser has it): the answers kept on the phone go when the network is back,
// with or without the app open. Still offline: the browser tries again later.
self.addEventListener('sync', (event) => {
  const sync = event as ExtendableEvent & { tag?: string };
  if (sync.tag !== 'svc-outbox') return;
  sync.waitUntil(
    (async () => {
      const token = await rememberedToken();
      if (!token) return;
      const report = await flushAnswers(workerPost(token));
      await tellClients({ type: 'svc-outbox' });
      if (report.waiting > 0) throw new Error('The answers wait for the network.');
    })(),
  );
});
