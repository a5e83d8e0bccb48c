// Entry of `@screen-service/tables-engine/sqlite`: the better-sqlite3 store (Node only). Every export is public API.
export { createSqliteStore, type SqliteStoreOptions } from './sqlite-store.js';
