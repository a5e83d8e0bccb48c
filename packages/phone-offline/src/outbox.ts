// Answers made on the phone (taps, typed replies, photos) kept on the device with an idempotency key until the
// service acknowledged them; sent in the order they were made (ADR 0276).
import { deviceOwner, META, OUTBOX, onStore } from './device-db.js';

/** One answer as the app makes it. */
export interface NewAnswer {
  agentId: string;
  kind: 'tap' | 'say';
  /** The request body without `photo_ids` and the key: `{text}` for a reply, `{screen_id, event}` for a tap. */
  body: Record<string, unknown>;
  /** What the thread shows while it waits: the typed text, or the tap's choice. */
  label: string;
  /** Photos to upload first (their ids go with the answer, after any `photo_ids` already in `body`). */
  photos?: Blob[];
  /**
   * The upload key of each photo, by position (ADR 0287): a photo a screen's field already tried to upload
   * keeps that try's key, so the service stores it once. Missing ones are made from the answer's key.
   */
  photoKeys?: string[];
}

/** An answer kept on the device. */
export interface QueuedAnswer extends NewAnswer {
  /** Its place in the order answers were made. */
  n: number;
  /** The idempotency key sent with every try: the service writes the answer once. */
  key: string;
  photos: Blob[];
  /** When the person made it (ms). */
  at: number;
  /** The user id of the person who made it: only that person's sign-in shows or sends it. */
  owner: string;
  /** The service's reason when it refused it for good ("Not delivered"); it is never sent again. */
  refused?: string;
}

/**
 * Sends one request of the person's API (`path` under its mount) and resolves with the JSON answer; throws
 * an error with a numeric `status` when the service answered with an error, anything else when it did not
 * answer at all (offline, the connection dropped).
 */
export type Post = (
  path: string,
  body?: unknown,
  raw?: Blob,
  headers?: Record<string, string>,
) => Promise<unknown>;

/** The upload key of an answer's photo: the one it came with, else the answer's key and its place. */
export const photoKey = (q: { key: string; photoKeys?: string[] }, i: number): string =>
  q.photoKeys?.[i] ?? `${q.key}.p${i}`;

/**
 * Uploads one photo of the person with its idempotency key (ADR 0287): sent again with the key (a lost
 * response, a retry from the queue) the service answers the same photo and stores nothing new.
 */
export async function uploadPhoto(
  agentId: string,
  photo: Blob,
  key: string,
  post: Post,
): Promise<{ id: string; url: string }> {
  const path = `/agents/${encodeURIComponent(agentId)}/photos`;
  return (await post(path, undefined, photo, { 'idempotency-key': key })) as { id: string; url: string };
}

/** Refusals that are final: the service answered and will answer the same again (expired, invalid). */
export function isFinalRefusal(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  // 401: the sign-in is renewed and the answer goes later; 408, 425, 429: try again later.
  return (
    typeof status === 'number' && status >= 400 && status < 500 && ![401, 408, 425, 429].includes(status)
  );
}

/** The person the device is claimed for; keeping an answer for no one is a mistake of the caller. */
async function owner(): Promise<string> {
  const id = await deviceOwner();
  if (id === null)
    throw new Error('No person has claimed this device: call claimDevice(user id) after sign-in.');
  return id;
}

/** The answers of the person the device belongs to, oldest first (refused ones included, marked). */
export async function queuedAnswers(agentId?: string): Promise<QueuedAnswer[]> {
  const id = await deviceOwner();
  const all = await onStore<QueuedAnswer[]>(OUTBOX, 'readonly', (s) => s.getAll());
  // Another person's answers are never shown or sent (claimDevice removes them; this is the second lock).
  return all.filter((q) => q.owner === id && (agentId === undefined || q.agentId === agentId));
}

/** Keeps an answer on the device for the person it belongs to; it is sent by the next {@link flushAnswers}. */
export async function queueAnswer(a: NewAnswer & { key?: string }): Promise<QueuedAnswer> {
  const q = {
    ...a,
    key: a.key ?? crypto.randomUUID(),
    photos: a.photos ?? [],
    at: Date.now(),
    owner: await owner(),
  };
  const n = await onStore(OUTBOX, 'readwrite', (s) => s.add(q));
  return { ...q, n: n as number };
}

/** Forgets one kept answer (the person dismissed a "Not delivered" one). */
export async function dismissAnswer(n: number): Promise<void> {
  await onStore(OUTBOX, 'readwrite', (s) => s.delete(n));
}

async function deliver(q: NewAnswer & { key: string; photos: Blob[] }, post: Post): Promise<unknown> {
  const agent = `/agents/${encodeURIComponent(q.agentId)}`;
  // Each photo goes with its own key: a try whose answer never arrived left it stored, and this try gets the
  // same photo back instead of a second one (ADR 0287).
  const ids = Array.isArray(q.body.photo_ids) ? [...(q.body.photo_ids as string[])] : [];
  for (const [i, photo] of q.photos.entries())
    ids.push((await uploadPhoto(q.agentId, photo, photoKey(q, i), post)).id);
  const body = { ...q.body, ...(ids.length > 0 ? { photo_ids: ids } : {}), idempotency_key: q.key };
  return post(`${agent}/${q.kind === 'tap' ? 'taps' : 'messages'}`, body);
}

/**
 * Sends an answer at once when no earlier one is waiting, else keeps it behind them. Resolves `{sent}` with
 * the service's answer, or `{queued}` when the network did not answer; throws a final refusal as it came.
 */
export async function sendAnswer(
  a: NewAnswer,
  post: Post,
): Promise<{ sent: unknown; queued?: never } | { queued: QueuedAnswer; sent?: never }> {
  const key = crypto.randomUUID();
  if (!(await queuedAnswers()).some((q) => !q.refused)) {
    try {
      return { sent: await deliver({ ...a, key, photos: a.photos ?? [] }, post) };
    } catch (error) {
      if (isFinalRefusal(error)) throw error;
    }
  }
  // Kept with the key already tried: if that try reached the service, the resend answers it.
  return { queued: await queueAnswer({ ...a, key }) };
}

/** What one pass of {@link flushAnswers} did. */
export interface FlushReport {
  sent: number;
  refused: number;
  /** Still waiting: the network (or the service) did not answer. */
  waiting: number;
}

let running: Promise<FlushReport> | undefined;

/**
 * Sends the waiting answers in order, each until the service acknowledged it; stops at the first the
 * network did not carry (the later ones wait behind it). A final refusal is kept, marked, and the next goes.
 * One pass at a time per page or worker; a page and its service worker may both send: the key keeps one.
 */
export function flushAnswers(post: Post, progress?: () => void): Promise<FlushReport> {
  running ??= (async () => {
    const report = { sent: 0, refused: 0, waiting: 0 };
    for (;;) {
      const waiting = (await queuedAnswers()).filter((q) => !q.refused);
      const next = waiting[0];
      if (!next) break;
      try {
        await deliver(next, post);
        await dismissAnswer(next.n);
        report.sent++;
      } catch (error) {
        if (!isFinalRefusal(error)) {
          report.waiting = waiting.length;
          break;
        }
        const reason = error instanceof Error ? error.message : String(error);
        await onStore(OUTBOX, 'readwrite', (s) => s.put({ ...next, refused: reason }));
        report.refused++;
      }
      progress?.();
    }
    return report;
  })().finally(() => {
    running = undefined;
  });
  return running;
}

/**
 * Keeps the access token of `userId` where a service worker's Background Sync reads it (the page holds the
 * session).
 */
export async function rememberToken(token: string, userId: string): Promise<void> {
  await onStore(META, 'readwrite', (s) => s.put({ token, owner: userId }, 'session'));
}

/**
 * The token {@link rememberToken} kept, or null; null too when it is not the token of the person the device
 * belongs to (a sign-in kept before a change of person was claimed): no one's answers go with another's token.
 */
export async function rememberedToken(): Promise<string | null> {
  const kept = (await onStore(META, 'readonly', (s) => s.get('session'))) as
    | { token?: unknown; owner?: unknown }
    | undefined;
  const id = await deviceOwner();
  return kept && typeof kept.token === 'string' && id !== null && kept.owner === id ? kept.token : null;
}
