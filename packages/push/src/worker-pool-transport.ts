// The core's PushTransport over worker threads (ADR 0207): each worker encrypts, signs and POSTs; this
// thread only hands out requests and maps the answers with the same rules as the in-thread transport.
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { PinnedAddress, PostResult } from './push-poster.js';
import type { PushOutcome, PushRequest } from './push-transport.js';
import type { PoolAnswer, PoolRequest } from './push-worker.js';
import {
  type ClosablePushTransport,
  createEndpointCheck,
  outcomeOfPost,
  transportDefaults,
  type WebPushTransportOptions,
} from './web-push-transport.js';

export interface WorkerPoolTransportOptions extends WebPushTransportOptions {
  /** Worker threads (default `os.availableParallelism() - 1`, at least 1: one core stays the main thread's). */
  workers?: number;
  /** The worker script (default: `push-worker.js` beside this module in dist). */
  workerUrl?: URL;
}

interface Slot {
  worker: Worker;
  pending: Map<number, (result: PostResult) => void>;
  /** Pushes handed out this event-loop turn, posted together (one wake-up of the worker per turn). */
  outbox: { id: number; request: PushRequest; pinned: PinnedAddress }[];
}

/**
 * Creates a transport whose pushes are encrypted, signed and sent in worker threads, so the sender's thread
 * (and the requests sharing it) spends only a message per push. Close it after the sender stopped.
 *
 * @throws {PushConfigError} when the VAPID settings are malformed (see {@link checkVapidKeys}).
 * @throws {RangeError} when `workers` is not a whole number of at least 1.
 * @example
 * ```ts
 * const transport = createWorkerPoolTransport({ vapid, workers: 2 });
 * const sender = core.createPushSender(transport);
 * sender.start();
 * // on shutdown
 * await sender.stop();
 * await transport.close();
 * ```
 */
export function createWorkerPoolTransport(options: WorkerPoolTransportOptions): ClosablePushTransport {
  const { now, ...settings } = transportDefaults(options);
  // Checked here, before a worker gets the push: the resolver is a function and stays on this thread.
  const checkEndpoint = createEndpointCheck(options);
  // A worker that has not answered well after its own request timeout is stuck: its pushes are retried.
  const answerWithinMs = settings.timeoutMs + 5000;
  if (options.workers !== undefined && !(Number.isInteger(options.workers) && options.workers >= 1)) {
    throw new RangeError(
      `workers must be a whole number of at least 1, got ${options.workers}; leave it out for one less than the cores`,
    );
  }
  const size = options.workers ?? Math.max(1, os.availableParallelism() - 1);
  const workerUrl = options.workerUrl ?? new URL('./push-worker.js', import.meta.url);
  const slots: (Slot | null)[] = Array.from({ length: size }, () => null);
  let nextId = 1;
  let closed = false;
  const inFlight = new Set<Promise<unknown>>();

  /** Settles every push a worker held as unreachable (it may or may not have left: at least once). */
  function lose(slot: Slot, reason: string) {
    const i = slots.indexOf(slot);
    if (i >= 0) slots[i] = null;
    for (const resolve of slot.pending.values()) resolve({ kind: 'unreachable', reason });
    slot.pending.clear();
  }

  function spawn(i: number): Slot {
    const worker = new Worker(workerUrl, { workerData: settings });
    const slot: Slot = { worker, pending: new Map(), outbox: [] };
    worker.unref();
    worker.on('message', (answers: PoolAnswer) => {
      for (const { id, result } of answers) {
        const resolve = slot.pending.get(id);
        if (!resolve) continue;
        slot.pending.delete(id);
        resolve(result);
      }
      if (slot.pending.size === 0) worker.unref();
    });
    worker.on('error', (error) => lose(slot, `the push worker failed: ${String(error)}`));
    worker.on('exit', (code) => lose(slot, `the push worker exited (code ${code})`));
    slots[i] = slot;
    return slot;
  }

  /** The worker with the fewest pushes in flight (a lost one is restarted here). */
  function pick(): Slot {
    let best: Slot | null = null;
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i] ?? spawn(i);
      if (!best || slot.pending.size < best.pending.size) best = slot;
      if (slot.pending.size === 0) break;
    }
    return best!;
  }

  // Started now, not on the first push: a worker's start (loading web-push, first key pairs) would otherwise
  // land on the first buzz's delay. Idle workers are unref'd, so they do not hold the process open.
  for (let i = 0; i < size; i++) spawn(i);

  async function postChecked(request: PushRequest): Promise<PostResult> {
    const pinned = await checkEndpoint(request);
    return 'kind' in pinned ? pinned : postInWorker(request, pinned);
  }

  function postInWorker(request: PushRequest, pinned: PinnedAddress): Promise<PostResult> {
    const slot = pick();
    const id = nextId++;
    return new Promise<PostResult>((resolve) => {
      const timer = setTimeout(() => {
        lose(slot, `the push worker did not answer within ${answerWithinMs} ms`);
        void slot.worker.terminate();
      }, answerWithinMs);
      timer.unref();
      slot.pending.set(id, (result) => {
        clearTimeout(timer);
        resolve(result);
      });
      if (slot.pending.size === 1) slot.worker.ref();
      if (slot.outbox.length === 0) setImmediate(() => handOut(slot));
      slot.outbox.push({ id, request, pinned });
    });
  }

  function handOut(slot: Slot) {
    const pushes = slot.outbox;
    slot.outbox = [];
    try {
      slot.worker.postMessage({ pushes } satisfies PoolRequest);
    } catch (error) {
      for (const { id } of pushes) {
        slot.pending.get(id)?.({
          kind: 'unreachable',
          reason: `could not hand the push to a worker: ${String(error)}`,
        });
        slot.pending.delete(id);
      }
    }
  }

  return {
    async send(request: PushRequest): Promise<PushOutcome> {
      if (closed) return { status: 'retry', httpStatus: null, reason: 'the push transport is closed' };
      const sending = postChecked(request);
      inFlight.add(sending);
      try {
        return outcomeOfPost(await sending, now());
      } finally {
        inFlight.delete(sending);
      }
    },
    async close() {
      closed = true;
      await Promise.allSettled([...inFlight]);
      await Promise.all(
        slots.map(async (slot, i) => {
          if (!slot) return;
          slots[i] = null;
          // Ask the worker to close its connections and end; terminate if it does not within a second.
          const exited = new Promise<void>((resolve) => slot.worker.once('exit', () => resolve()));
          slot.worker.postMessage({ close: true } satisfies PoolRequest);
          const timer = setTimeout(() => void slot.worker.terminate(), 1000);
          await exited;
          clearTimeout(timer);
        }),
      );
    },
  };
}
