// @screen-service/postgres: Screen Service on PostgreSQL (the scale path; the embedded default stays SQLite).
// Every export is public API.

export { POSTGRES_MIGRATIONS, POSTGRES_USER_TABLES, type PostgresMigration } from './migrations.js';
// The service store (pgstore): repositories, migrations, photo bytes.
export {
  type MigrationReport,
  POSTGRES_MIGRATION_TABLE,
  postgresSchemaVersion,
  runPostgresMigrations,
} from './migrations-runner.js';
export { PostgresStoreError, type PostgresStoreErrorCode } from './store/errors.js';
export {
  createPostgresStore,
  type OpenPostgresStoreOptions,
  openPostgresStore,
  type PostgresHealth,
  type PostgresStore,
} from './store/open-postgres-store.js';
export { createPostgresPhotoFiles, type PostgresPhotoFilesOptions } from './store/pg-photo-files.js';
export { createUnavailableTableStore } from './store/pg-relay.js';
