// Retention rules as housekeeping jobs (ADR 0190): what the service deletes, and after how long.

import { type Random, systemRandom } from '@screen-service/registry/kernel';
import type { Store } from '@screen-service/registry/model';
import { newPageVersion } from '../threads/page-version.js';
import type { HousekeepingJob } from './housekeeping.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** doc2 Limits "relay message retention": thread rows are kept 90 days, then deleted. */
export const RELAY_RETENTION_MS = 90 * DAY_MS;
/** A photo uploaded but never sent with an answer is removed after a day. */
export const UNATTACHED_PHOTO_MS = DAY_MS;
/** Wrong-code records only matter for the 10-minute window of doc2's attempt limit. */
export const PAIR_ATTEMPT_WINDOW_MS = 10 * 60 * 1000;
/**
 * Lapsed OAuth requests and tokens (used refresh tokens included) and app sessions are kept a day past their
 * expiry: a replayed used refresh token is still recognised (and revokes its family) until it would have
 * lapsed anyway.
 */
export const LAPSED_SIGN_IN_GRACE_MS = DAY_MS;

/** What the retention rules work on. */
export interface RetentionDeps {
  store: Pick<Store, 'housekeeping'>;
  /** Removes photo files whose rows are gone (the core's `photos.sweep`); resolves with how many. */
  sweepPhotoFiles?: () => Promise<unknown>;
  /** Drops relay tables unheld for 30 days (the core's `tables.sweep`); resolves with how many. */
  sweepUnheldTables?: () => Promise<number>;
  /** SVC_MESSAGES_PER_THREAD: rows kept per thread (the newest); absent keeps every row for 90 days. */
  messagesPerThread?: number;
  /** Draws the page versions threads move to when they lose rows (default: the OS CSPRNG). */
  random?: Random;
}

/**
 * The service's retention rules as jobs for {@link createHousekeepingScheduler}: `relay-retention`,
 * `thread-limit` (only with `messagesPerThread`), `pairing-codes`, `sign-ins`, `unattached-photos` and
 * `unheld-tables` (only with `sweepUnheldTables`). Push subscriptions a push service answered 404/410 for
 * are removed by the sender at that answer, so no job waits for them.
 *
 * @example
 * ```ts
 * const jobs = retentionJobs({ store, sweepPhotoFiles: () => core.photos.sweep(), messagesPerThread: 5000 });
 * ```
 */
export function retentionJobs(deps: RetentionDeps): HousekeepingJob[] {
  const hk = deps.store.housekeeping;
  // Threads that lose rows show other pages: each delete moves them to a fresh version (ADR 0241).
  const version = () => newPageVersion(deps.random ?? systemRandom);
  // Deleting rows queues their photo files (a trigger, ADR 0092); the sweep removes them after the delete.
  const withFiles = async (removedRows: number) => {
    if (removedRows === 0 || !deps.sweepPhotoFiles) return removedRows;
    await deps.sweepPhotoFiles();
    return removedRows;
  };
  const jobs: HousekeepingJob[] = [
    {
      name: 'relay-retention',
      run: async (now) => withFiles(await hk.deleteMessagesBefore(now - RELAY_RETENTION_MS, version())),
    },
  ];
  const keep = deps.messagesPerThread;
  if (keep !== undefined) {
    if (!Number.isSafeInteger(keep) || keep < 1) {
      throw new RangeError(`messagesPerThread must be a whole number above 0, got ${keep}`);
    }
    jobs.push({ name: 'thread-limit', run: async () => withFiles(await hk.trimThreads(keep, version())) });
  }
  jobs.push(
    {
      name: 'pairing-codes',
      run: (now) => hk.deleteExpiredPairing(now, now - PAIR_ATTEMPT_WINDOW_MS),
    },
    { name: 'sign-ins', run: (now) => hk.deleteLapsedSignIns(now - LAPSED_SIGN_IN_GRACE_MS) },
    {
      name: 'unattached-photos',
      run: async (now) => withFiles(await hk.deleteUnattachedPhotos(now - UNATTACHED_PHOTO_MS)),
    },
  );
  const unheld = deps.sweepUnheldTables;
  if (unheld) jobs.push({ name: 'unheld-tables', run: () => unheld() });
  return jobs;
}
