// @screen-service/core/housekeeping: the retention rules and the one scheduler that runs them.
// Every export here is public API.
export {
  createHousekeepingScheduler,
  HOUSEKEEPING_INTERVAL_MS,
  type HousekeepingJob,
  type HousekeepingRun,
  type HousekeepingScheduler,
  type HousekeepingSchedulerOptions,
} from './housekeeping.js';
export {
  LAPSED_SIGN_IN_GRACE_MS,
  PAIR_ATTEMPT_WINDOW_MS,
  RELAY_RETENTION_MS,
  type RetentionDeps,
  retentionJobs,
  UNATTACHED_PHOTO_MS,
} from './retention.js';
