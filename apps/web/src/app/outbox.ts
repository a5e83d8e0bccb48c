// Answers kept on this phone until the service has them (ADR 0276): sent now, or "Not sent yet" with the time,
// sent in order when the network is back; "Not delivered" with the service's reason when it refused one.
import {
  dismissAnswer,
  flushAnswers,
  isFinalRefusal,
  type NewAnswer,
  type Post,
  type QueuedAnswer,
  queuedAnswers,
  sendAnswer,
  uploadPhoto,
} from '@screen-service/phone-offline';
import { el } from '../shared/dom.js';
import { call } from './api.js';

const post: Post = (path, body, raw, headers) => call('POST', path, body, raw, headers);
const listeners = new Set<() => void>();
const changed = () => {
  for (const l of listeners) l();
};

/** Asks the service worker to send the kept answers when the network is back, page or no page. */
function askBackgroundSync(): void {
  void navigator.serviceWorker?.ready
    .then((r) => (r as ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }).sync)
    .then((sync) => sync?.register('svc-outbox'))
    .catch(() => undefined);
}

/** Sends an answer, or keeps it when the network does not answer; resolves the service's answer or null. */
export async function answer<T>(a: NewAnswer): Promise<T | null> {
  const done = await sendAnswer(a, post);
  if (done.queued) {
    askBackgroundSync();
    changed();
    void flushNow();
    return null;
  }
  return done.sent as T;
}

/** A screen's photo the service has not got yet: its bytes, and the key its upload was tried with. */
export interface KeptPhoto {
  photo: Blob;
  key: string;
}

/**
 * A photo taken in a screen's own photo field (ADR 0287): uploaded at once with a fresh key; when the network
 * does not answer, kept on this phone and named by a local `blob:` link the field shows. The tap that carries it
 * goes as a queued answer that uploads it first (with the same key: a try that reached the service is not stored
 * twice). A final refusal (not an image, too large) is thrown as it came.
 */
export async function screenPhoto(
  agentId: string,
  photo: Blob,
): Promise<{ url: string; id: string; kept?: never } | { url: string; kept: KeptPhoto; id?: never }> {
  const key = crypto.randomUUID();
  try {
    return await uploadPhoto(agentId, photo, key, post);
  } catch (error) {
    if (isFinalRefusal(error)) throw error;
    return { url: URL.createObjectURL(photo), kept: { photo, key } };
  }
}

let retry: ReturnType<typeof setTimeout> | undefined;

/** Sends the kept answers in order (the app's start, the `online` event, the worker's word, a retry). */
export async function flushNow(): Promise<void> {
  const report = await flushAnswers(post, changed).catch(() => null);
  changed();
  // Online, yet the service did not take them (it failed, or a dropped connection): try again soon.
  clearTimeout(retry);
  if (report && report.waiting > 0 && navigator.onLine) retry = setTimeout(() => void flushNow(), 15_000);
}

/** Calls `listener` whenever the kept answers change; returns the way to stop. */
export function onOutbox(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const time = (at: number) => new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

function item(q: QueuedAnswer, shown: string[]): HTMLElement {
  const dismiss = el('button', { type: 'button', class: 'link' }, 'Dismiss');
  dismiss.addEventListener('click', () => void dismissAnswer(q.n).then(changed));
  // The photos themselves, read from this phone: the person sees what waits to go.
  const photos = q.photos.map((p) => {
    const src = URL.createObjectURL(p);
    shown.push(src);
    return el('img', { src, alt: 'Photo not sent yet', class: 'photo pending-photo', decoding: 'async' });
  });
  return el(
    'li',
    { class: `msg mine pending${q.refused ? ' refused' : ''}`, 'data-key': q.key },
    el('p', { class: 'bubble' }, q.label),
    ...photos,
    q.photos.length > 0 ? el('p', { class: 'small' }, `${q.photos.length} photo(s)`) : null,
    el(
      'p',
      { class: 'pending-note small', role: 'status' },
      q.refused ? `Not delivered: ${q.refused}` : `Not sent yet · ${time(q.at)}`,
      q.refused ? dismiss : null,
    ),
  );
}

/** The list of one thread's kept answers, under its messages; redrawn on every change. */
export function pendingList(agentId: string) {
  const list = el('ol', { class: 'pending-list', 'aria-label': 'Not sent yet' });
  let shown: string[] = [];
  const draw = async () => {
    const waiting = await queuedAnswers(agentId).catch(() => []);
    const before = shown;
    shown = [];
    list.replaceChildren(...waiting.map((q) => item(q, shown)));
    for (const src of before) URL.revokeObjectURL(src);
  };
  void draw();
  const stop = onOutbox(() => void draw());
  return {
    el: list,
    stop: () => {
      stop();
      for (const src of shown) URL.revokeObjectURL(src);
    },
  };
}
