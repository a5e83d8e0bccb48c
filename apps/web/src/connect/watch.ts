// Learns of the decision without a reload: long-polls `GET {oauth}/requests/<id>?wait=25` in a loop, backing
// off on network trouble, until the request leaves `pending` or the server refuses.
import { backoffDelay } from '@screen-service/io-kit/backoff';
import { ApiError, type ConsentRequest, readRequest } from './oauth-api.js';

export interface WatchOptions {
  id: string;
  /** Every answer, pending or not; the watch stops after the first one that is not pending. */
  onView(view: ConsentRequest): void;
  /** A refusal that retrying cannot fix (403 wrong browser, 404 unknown): the watch stops. */
  onRefused(error: ApiError): void;
  /** Network trouble or a 5xx; the next try is in `delayMs` (0 once it works again). */
  onTrouble?(delayMs: number): void;
  /** Seconds the server may hold each answer. */
  waitSeconds?: number;
  read?: typeof readRequest;
}

/** Network trouble: wait 1 s, 2 s, 4 s ... at most 30 s before asking again. */
const BACKOFF = { baseMs: 1000, maxMs: 30_000 };
/** A server that answers `pending` at once (no long poll) is asked at most once a second. */
const MIN_INTERVAL_MS = 1_000;

/** Starts the loop; returns `stop`. */
export function watchRequest(options: WatchOptions): () => void {
  const { id, onView, onRefused, onTrouble, waitSeconds = 25, read = readRequest } = options;
  const stopper = new AbortController();
  let wake: (() => void) | undefined;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });
  // Back online or back in front: try at once instead of sitting out the backoff.
  const nudge = () => {
    if (document.visibilityState === 'visible') wake?.();
  };
  addEventListener('online', nudge);
  document.addEventListener('visibilitychange', nudge);

  void (async () => {
    let failures = 0;
    while (!stopper.signal.aborted) {
      const started = Date.now();
      try {
        // The server answers within `waitSeconds`; a connection that hangs longer is dropped and retried.
        const signal = AbortSignal.any([stopper.signal, AbortSignal.timeout((waitSeconds + 15) * 1000)]);
        const view = await read(id, waitSeconds, signal);
        if (stopper.signal.aborted) return;
        if (failures > 0) onTrouble?.(0);
        failures = 0;
        onView(view);
        if (view.status !== 'pending') return;
        const elapsed = Date.now() - started;
        if (elapsed < MIN_INTERVAL_MS) await pause(MIN_INTERVAL_MS - elapsed);
      } catch (error) {
        if (stopper.signal.aborted) return;
        const call = error instanceof ApiError ? error : undefined;
        if (call && call.status >= 400 && call.status < 500 && call.status !== 429) {
          onRefused(call);
          return;
        }
        failures++;
        const delay = backoffDelay(BACKOFF, failures);
        onTrouble?.(delay);
        await pause(delay);
      }
    }
  })();

  return () => {
    stopper.abort();
    wake?.();
    removeEventListener('online', nudge);
    document.removeEventListener('visibilitychange', nudge);
  };
}
