// A pool worker (ADR 0207): encrypts, signs and POSTs the pushes its parent hands it, and answers with the
// plain `PostResult`; the parent applies the outbox rules. Built to dist/push-worker.js.
import { parentPort, workerData } from 'node:worker_threads';
import type { PushRequest } from '@screen-service/service-core';
import { createPushPoster, type PostResult, type PushPosterOptions } from './push-poster.js';

/** Parent → worker. */
export type PoolRequest = { id: number; request: PushRequest } | { id: 0; close: true };
/** Worker → parent. */
export type PoolAnswer = { id: number; result: PostResult };

const settings = workerData as Omit<PushPosterOptions, 'now'>;
const poster = createPushPoster({ ...settings, now: () => Date.now() });
const port = parentPort;
if (!port) throw new Error('push-worker.js runs only as a worker thread of createWorkerPoolTransport');

port.on('message', (m: PoolRequest) => {
  if ('close' in m) {
    poster.close();
    port.close();
    return;
  }
  void poster
    .post(m.request)
    .catch((error: unknown): PostResult => ({ kind: 'unreachable', reason: String(error) }))
    .then((result) => port.postMessage({ id: m.id, result } satisfies PoolAnswer));
});
