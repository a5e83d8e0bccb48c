// How one tables call shares the process with other work (ADR 0254): it yields between lines once a slice
// of work ran, stops once the call's work passed its cap, and asks a budget before each query scans rows.

/** What the caller decides about a call's work; without it a call runs its lines back to back. */
export interface CallPace {
  /** A clock in ms that only moves forward (`performance.now`). */
  clock: () => number;
  /** Yields to other work (in Node, `setImmediate`) once this many ms of lines ran since the last yield. */
  sliceMs: number;
  yieldNow: () => Promise<void>;
  /**
   * Stops the call once its lines took this many ms of work (time spent yielded does not count): the lines
   * left are refused `LIMIT_TIME` and nothing of them runs.
   */
  maxMs: number;
  /**
   * Asked before a query scans a table of `rows` rows (the per-account budget): `true` lets it run, a
   * message refuses it `LIMIT_BUDGET` with that message.
   */
  admit?: (rows: number) => true | string | Promise<true | string>;
}

/** The running tally of one call under a {@link CallPace}. */
export interface PaceMeter {
  /** Before a line: yields when the slice is used up; false when the call's work is over its cap. */
  beforeLine(): Promise<boolean>;
  /** After a line: adds its work to the call's and the slice's. */
  afterLine(): void;
  /** The message of a line refused because the call ran out of time. */
  readonly overMessage: string;
}

/**
 * A meter for one call; with no pace every line runs and nothing yields.
 *
 * @example
 * ```ts
 * const meter = paceMeter({ clock: performance.now.bind(performance), sliceMs: 10, maxMs: 1000, yieldNow });
 * for (const line of lines) { if (!(await meter.beforeLine())) refuse(line); else { run(line); meter.afterLine(); } }
 * ```
 */
export function paceMeter(pace: CallPace | undefined): PaceMeter {
  if (!pace) return { beforeLine: async () => true, afterLine: () => {}, overMessage: '' };
  let worked = 0;
  let slice = 0;
  let started = pace.clock();
  return {
    async beforeLine() {
      if (worked >= pace.maxMs) return false;
      if (slice >= pace.sliceMs) {
        await pace.yieldNow();
        slice = 0;
      }
      started = pace.clock();
      return true;
    },
    afterLine() {
      const spent = Math.max(0, pace.clock() - started);
      worked += spent;
      slice += spent;
    },
    overMessage: `this call ran ${pace.maxMs} ms of table work (at most ${pace.maxMs} ms per call); this line and the ones after it did not run: send them in another call`,
  };
}
