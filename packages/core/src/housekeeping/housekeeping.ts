// The one housekeeping scheduler of a process: runs a list of jobs every period, each claimed first so
// several instances on one database do not repeat a sweep, and reports what each run removed.

import type { Clock } from '@screen-service/registry/kernel';
import type { HousekeepingRepository } from '@screen-service/registry/model';

/** A housekeeping job: removes what is due at `now` and resolves with how many rows or files it removed. */
export interface HousekeepingJob {
  name: string;
  run(now: number): Promise<number>;
}

/** What one job's turn did: `removed` rows or files, `skipped` when another instance held the claim. */
export interface HousekeepingRun {
  name: string;
  at: number;
  removed: number;
  skipped: boolean;
  ms: number;
  error?: unknown;
}

/** Options of {@link createHousekeepingScheduler}. */
export interface HousekeepingSchedulerOptions {
  jobs: readonly HousekeepingJob[];
  /** Where the per-job claims live (the store's `housekeeping`); only `claim` is used. */
  claims: Pick<HousekeepingRepository, 'claim'>;
  /** This instance's name in the claims (e.g. host and pid). */
  holder: string;
  now: Clock;
  /** Real milliseconds between passes; default 10 minutes. Also how long a claim lasts. */
  intervalMs?: number;
  /** Every job's turn, for the log and the metrics. */
  onRun?: (run: HousekeepingRun) => void;
}

/** The scheduler: `runOnce` for tests and `svc` commands, `start`/`stop` with the server. */
export interface HousekeepingScheduler {
  /** One pass over every job (a pass already running is awaited instead of starting a second). */
  runOnce(): Promise<HousekeepingRun[]>;
  /** Runs a pass now and then every `intervalMs` (the timer does not hold the process open). */
  start(): void;
  /** Stops the timer and waits for a running pass. */
  stop(): Promise<void>;
}

/** Default period between housekeeping passes. */
export const HOUSEKEEPING_INTERVAL_MS = 10 * 60 * 1000;

/**
 * Builds the scheduler. A job throwing is reported (`error`) and does not stop the others; a job whose
 * claim another holder has is `skipped`. Claims last one period, so across N instances each job runs
 * about once per period.
 *
 * @example
 * ```ts
 * const hk = createHousekeepingScheduler({ jobs: retentionJobs({ store, photos }), claims: store.housekeeping,
 *   holder: `${os.hostname()}:${process.pid}`, now: Date.now, onRun: (r) => log.info(r, 'housekeeping') });
 * hk.start();
 * ```
 */
export function createHousekeepingScheduler(options: HousekeepingSchedulerOptions): HousekeepingScheduler {
  const interval = options.intervalMs ?? HOUSEKEEPING_INTERVAL_MS;
  const names = new Set<string>();
  for (const job of options.jobs) {
    if (names.has(job.name))
      throw new Error(`Two housekeeping jobs are named "${job.name}"; names must differ`);
    names.add(job.name);
  }
  let running: Promise<HousekeepingRun[]> | undefined;
  let timer: NodeJS.Timeout | undefined;

  async function pass(): Promise<HousekeepingRun[]> {
    const runs: HousekeepingRun[] = [];
    for (const job of options.jobs) {
      const at = options.now();
      const started = performance.now();
      const run: HousekeepingRun = { name: job.name, at, removed: 0, skipped: false, ms: 0 };
      try {
        // Claimed until just before the next pass, so this holder's next pass may renew it.
        if (await options.claims.claim(job.name, options.holder, at, at + interval - 1)) {
          run.removed = await job.run(at);
        } else {
          run.skipped = true;
        }
      } catch (err) {
        run.error = err;
      }
      run.ms = performance.now() - started;
      runs.push(run);
      options.onRun?.(run);
    }
    return runs;
  }

  const runOnce = () => {
    running ??= pass().finally(() => {
      running = undefined;
    });
    return running;
  };

  return {
    runOnce,
    start() {
      if (timer) return;
      void runOnce();
      timer = setInterval(() => void runOnce(), interval);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
