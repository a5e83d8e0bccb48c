// Entry of `@screen-service/tables-engine/sqlite`: the better-sqlite3 store (Node only). Every export is public API.
export { TABLES_MIGRATION_TABLE, TABLES_MIGRATIONS } from './sql-layout.js';
export { createSqliteStore, type SqliteStoreOptions } from './sqlite-store.js';
