// @screen-service/store-sqlite: the service Store on one SQLite file (better-sqlite3), its migrations, group
// commit, WAL checkpoints, the data folder and photo files on disk. Every export is public API.
export { runMigrations, schemaVersion } from '@screen-service/tables-engine/migrations';
export {
  type DefaultDataDirOptions,
  defaultDataDir,
  findWorkspaceRoot,
  userDataDir,
} from './data-dir.js';
export { createDiskPhotoFiles } from './disk-photo-files.js';
export { createGroupCommit, type GroupCommit, groupCommitOf } from './group-commit.js';
export {
  backupDatabase,
  type DatabaseReport,
  inspectDatabase,
  walCheckpointJob,
} from './maintenance.js';
export { CORE_TABLES, type CoreMigration, coreMigrations } from './migrations.js';
export type { SqliteDb } from './rows.js';
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
} from './service-database.js';
export { createSqliteStore } from './sqlite-store.js';
export {
  BACKSTOP_CHECKPOINT_PAGES,
  type CheckpointReport,
  startWalCheckpointer,
  type WalCheckpointer,
  type WalCheckpointerOptions,
} from './wal-checkpointer.js';
