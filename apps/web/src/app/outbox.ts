// Answers kept on this phone until the service has them (ADR 0276): sent now, or "Not sent yet" with the time,
// sent in order when the network is back; "Not delivered" with the service's reason when it refused one.
import {
  dismissAnswer,
  flushAnswers,
  type NewAnswer,
  type Post,
  type QueuedAnswer,
  queuedAnswers,
  sendAnswer,
} from '@screen-service/phone-offline';
import { el } from '../shared/dom.js';
import { call } from './api.js';

const post: Post = (path, body, raw) => call('POST', path, body, raw);
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

function item(q: QueuedAnswer): HTMLElement {
  const dismiss = el('button', { type: 'button', class: 'link' }, 'Dismiss');
  dismiss.addEventListener('click', () => void dismissAnswer(q.n).then(changed));
  return el(
    'li',
    { class: `msg mine pending${q.refused ? ' refused' : ''}`, 'data-key': q.key },
    el('p', { class: 'bubble' }, q.label),
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
  const draw = async () => list.replaceChildren(...(await queuedAnswers(agentId).catch(() => [])).map(item));
  void draw();
  return { el: list, stop: onOutbox(() => void draw()) };
}
