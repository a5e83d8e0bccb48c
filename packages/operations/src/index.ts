// @screen-service/operations public API. Every export here is public; nothing else is.
export {
  type BackupManifest,
  type CreateBackupOptions,
  createBackup,
  MANIFEST_FILE,
  type RestoreBackupOptions,
  type RestoreReport,
  restoreBackup,
  WITHOUT_SECRET_NOTE,
} from './backup.js';
export { type CheckStatus, type DoctorCheck, type DoctorOptions, runDoctor } from './doctor.js';
export { OperationsError, type OperationsErrorCode } from './errors.js';
export {
  KEEP_ALIVE_TIMEOUT_MS,
  LISTEN_BACKLOG,
  type ListeningServer,
  listenHttp,
  resolveBaseUrl,
} from './http-lifecycle.js';
export {
  type ClaimDataDirOptions,
  claimDataDir,
  type DataDirClaim,
  describeInstance,
  LOCK_FILE,
  PID_FILE,
  type RunningInstance,
  runningInstance,
} from './instance-lock.js';
export {
  createServiceLogger,
  type LogFormat,
  resolveLogFormat,
  type ServiceLoggerOptions,
} from './logger.js';
export {
  type CountedRequest,
  createServiceMetrics,
  type MetricsSources,
  type ServiceMetrics,
  type ServiceMetricsOptions,
} from './metrics.js';
export { METRICS_TOKEN_MIN_LENGTH, metricsHandler } from './metrics-handler.js';
export {
  SERVE_EXIT,
  type ServeOptions,
  type ServeTarget,
  type StoppableService,
  serveUntilStopped,
  startFailureMessage,
} from './serve-process.js';
export {
  coreLimits,
  databaseMetrics,
  mountOperations,
  OPERATIONS_ENV,
  type OperationsConfig,
  operationsConfig,
  type ReadinessProbe,
  type StartHousekeepingOptions,
  startHousekeeping,
} from './server-kit.js';
