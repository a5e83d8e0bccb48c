// Entry of `@screen-service/tables-engine/sqlite`: the better-sqlite3 store (Node only). Every export is public API.
export {
  createSqliteStore,
  type SqliteStoreOptions,
  TABLES_MIGRATION_TABLE,
  TABLES_MIGRATIONS,
} from './sqlite-store.js';
