// A pool worker (ADR 0207): encrypts, signs and POSTs the pushes its parent hands it, and answers with the
// plain `PostResult`; the parent applies the outbox rules. Built to dist/push-worker.js.
import { parentPort, workerData } from 'node:worker_threads';
import {
  createPushPoster,
  type PinnedAddress,
  type PostResult,
  type PushPosterOptions,
} from './push-poster.js';
import type { PushRequest } from './push-transport.js';

/** Parent → worker: the pushes handed out in one event-loop turn, or the request to end. */
export type PoolRequest =
  | { pushes: { id: number; request: PushRequest; pinned: PinnedAddress }[] }
  | { close: true };
/** Worker → parent: the answers ready in one event-loop turn. */
export type PoolAnswer = { id: number; result: PostResult }[];

const settings = workerData as Omit<PushPosterOptions, 'now'>;
const poster = createPushPoster({ ...settings, now: () => Date.now() });
const port = parentPort;
if (!port) throw new Error('push-worker.js runs only as a worker thread of createWorkerPoolTransport');

// Answers that finish in the same turn go back as one message: in a burst, one wake-up of the parent per
// turn instead of one per push.
let answers: PoolAnswer = [];
const flush = () => {
  const batch = answers;
  answers = [];
  port.postMessage(batch);
};
const answer = (id: number, result: PostResult) => {
  if (answers.length === 0) setImmediate(flush);
  answers.push({ id, result });
};

port.on('message', (m: PoolRequest) => {
  if ('close' in m) {
    poster.close();
    port.close();
    return;
  }
  for (const { id, request, pinned } of m.pushes) {
    void poster
      .post(request, pinned)
      .catch((error: unknown): PostResult => ({ kind: 'unreachable', reason: String(error) }))
      .then((result) => answer(id, result));
  }
});
