// @screen-service/store-postgres: Screen Service on PostgreSQL (the scale path; the default stays SQLite).
// Every export is public API.

// Several instances on one database (pgscale): LISTEN/NOTIFY wake-ups, shared limits.
export {
  createLeadingSender,
  type LeadingSender,
  type LeadingSenderOptions,
  PUSH_SENDER_LOCK_KEY,
} from './leader/leading-sender.js';
export {
  createPostgresTurnLeases,
  type PostgresTurnLeases,
  TURN_LEASES_MIGRATION,
} from './leases/turn-leases.js';
export { createPostgresLimits, type PostgresLimitsOptions } from './limits/postgres-limits.js';
export { LIMITS_MIGRATION } from './limits/schema.js';
export { POSTGRES_MIGRATIONS, POSTGRES_USER_TABLES, type PostgresMigration } from './migrations.js';
// The service store (pgstore): repositories, migrations, photo bytes.
export {
  type MigrationReport,
  POSTGRES_MIGRATION_TABLE,
  postgresSchemaVersion,
  runPostgresMigrations,
} from './migrations-runner.js';
export {
  createPostgresNotifier,
  type PostgresNotifier,
  type PostgresNotifierOptions,
} from './notify/postgres-notifier.js';
export { NOTIFY_MIGRATION, type ScaleMigration } from './notify/schema.js';
export { decodeWire, encodeInline, MAX_INLINE_BYTES, type WireMessage } from './notify/wire.js';
export { describeDatabaseUrl, POSTGRES_ENV, postgresSettings } from './postgres-env.js';
export {
  createPostgresServices,
  HEALTH_TIMEOUT_MS,
  openPostgresServices,
  type PostgresDownReason,
  type PostgresReadiness,
  type PostgresServiceHealth,
  type PostgresServices,
} from './postgres-services.js';
export { ScaleError, type ScaleErrorCode } from './scale-errors.js';
export { ensureScaleSchema, SCALE_MIGRATIONS } from './scale-schema.js';
export {
  checkDatabaseUrl,
  openScaleServices,
  type ScaleHealth,
  type ScaleServices,
  type ScaleServicesOptions,
} from './scale-services.js';
export { PostgresStoreError, type PostgresStoreErrorCode } from './store/errors.js';
export {
  createPostgresStore,
  type OpenPostgresStoreOptions,
  openPostgresStore,
  type PostgresHealth,
  type PostgresStore,
} from './store/open-postgres-store.js';
export { createPostgresPhotoFiles, type PostgresPhotoFilesOptions } from './store/pg-photo-files.js';
// Agent tables (pgtables): the tables engine's TableStore on PostgreSQL.
export {
  createPostgresTableStore,
  type PostgresTableStore,
  type PostgresTableStoreOptions,
} from './tables/pg-table-store.js';
