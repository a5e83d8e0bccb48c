// A sleep that an AbortSignal cuts short (it resolves; callers check the signal).

/**
 * Waits `ms` milliseconds, or less when `signal` aborts.
 *
 * @example
 * ```ts
 * await sleep(1000, controller.signal);
 * ```
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
