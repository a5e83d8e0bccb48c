// The end of a driver's run: wait for the clients' loops, but no longer than the grace after the deadline;
// calls still in flight then are counted per step instead of holding the result. Pure (timer injected).

/** Calls in flight, per step. */
export function createInFlight() {
  const n: Record<string, number> = {};
  return {
    /** Marks a call of `step` started; call the returned function once it settled. */
    start(step: string): () => void {
      n[step] = (n[step] ?? 0) + 1;
      let done = false;
      return () => {
        if (done) return;
        done = true;
        n[step] = (n[step] ?? 1) - 1;
      };
    },
    /** Steps with calls in flight now, and how many. */
    now(): Record<string, number> {
      return Object.fromEntries(Object.entries(n).filter(([, k]) => k > 0));
    },
  };
}

export type InFlight = ReturnType<typeof createInFlight>;

export interface RunEnd {
  /** true: the grace ran out with calls in flight. */
  cut: boolean;
  /** Calls in flight when the grace ran out, per step (empty when not cut). */
  unfinished: Record<string, number>;
}

/**
 * Resolves when every loop ended, or after `afterMs` with what was still in flight.
 *
 * @example
 * ```ts
 * const end = await awaitRunEnd(loops, deadline - Date.now() + graceMs, inflight);
 * for (const [step, n] of Object.entries(end.unfinished)) for (let i = 0; i < n; i++) rec.fail(step, 'unfinished');
 * ```
 */
export async function awaitRunEnd(
  loops: readonly Promise<unknown>[],
  afterMs: number,
  inflight: InFlight,
  timers: { set: (fn: () => void, ms: number) => unknown; clear: (t: unknown) => void } = {
    set: (fn, ms) => setTimeout(fn, ms),
    clear: (t) => clearTimeout(t as NodeJS.Timeout),
  },
): Promise<RunEnd> {
  let timer: unknown;
  const cut = await Promise.race([
    Promise.allSettled(loops).then(() => false),
    new Promise<boolean>((resolve) => {
      timer = timers.set(() => resolve(true), Math.max(0, afterMs));
    }),
  ]);
  timers.clear(timer);
  // Read in the same turn as the race settled: a call that settles later is not counted as ended.
  return { cut, unfinished: cut ? inflight.now() : {} };
}
