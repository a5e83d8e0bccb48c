// @screen-service/postgres: Screen Service on PostgreSQL (the scale path; the embedded default stays SQLite).
// Every export is public API.
export { createPostgresLimits, type PostgresLimitsOptions } from './limits/postgres-limits.js';
export { LIMITS_MIGRATION } from './limits/schema.js';
export {
  createPostgresNotifier,
  type PostgresNotifier,
  type PostgresNotifierOptions,
} from './notify/postgres-notifier.js';
export { NOTIFY_MIGRATION, type ScaleMigration } from './notify/schema.js';
export { decodeWire, encodeInline, MAX_INLINE_BYTES, type WireMessage } from './notify/wire.js';
export { POSTGRES_ENV } from './postgres-env.js';
export { ScaleError, type ScaleErrorCode } from './scale-errors.js';
export { ensureScaleSchema, SCALE_MIGRATIONS } from './scale-schema.js';
export {
  checkDatabaseUrl,
  openScaleServices,
  type ScaleHealth,
  type ScaleServices,
  type ScaleServicesOptions,
} from './scale-services.js';
