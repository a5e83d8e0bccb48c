// Entry of `@screen-service/tables-engine/migrations`: the numbered-migration runner (no driver import).
export {
  type Migration,
  type MigrationDb,
  MigrationError,
  type MigrationErrorCode,
  type RunMigrationsOptions,
  runMigrations,
  schemaVersion,
} from './migrations.js';
