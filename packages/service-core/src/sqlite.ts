// Entry of `@screen-service/service-core/sqlite`: the better-sqlite3 Store and the core's migrations. Every
// export is public API; the driver is an optional peer dependency that only this entry needs.
export { runMigrations, schemaVersion } from '@screen-service/tables-engine/migrations';
export {
  type DefaultDataDirOptions,
  defaultDataDir,
  findWorkspaceRoot,
  userDataDir,
} from './sqlite/data-dir.js';
export { createGroupCommit, type GroupCommit, groupCommitOf } from './sqlite/group-commit.js';
export {
  backupDatabase,
  type DatabaseReport,
  inspectDatabase,
  walCheckpointJob,
} from './sqlite/maintenance.js';

export { CORE_TABLES, type CoreMigration, coreMigrations } from './sqlite/migrations.js';
export type { SqliteDb } from './sqlite/rows.js';
export {
  DATABASE_FILE,
  type DatabaseHealth,
  databaseHealth,
  type OpenServiceDatabaseOptions,
  openServiceDatabase,
  SECRET_FILE,
  SERVICE_MIGRATIONS,
  type ServiceDb,
  serviceSecret,
} from './sqlite/service-database.js';
export { createSqliteStore } from './sqlite/sqlite-store.js';
export {
  BACKSTOP_CHECKPOINT_PAGES,
  type CheckpointReport,
  startWalCheckpointer,
  type WalCheckpointer,
  type WalCheckpointerOptions,
} from './sqlite/wal-checkpointer.js';
