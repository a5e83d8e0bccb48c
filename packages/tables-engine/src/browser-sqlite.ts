// Entry of `@screen-service/tables-engine/browser-sqlite`: the store on SQLite WebAssembly (browser workers). Every export is public API.
export type { SqlDriver, SqlValue } from './sql-driver.js';
export { loadTable } from './sql-load.js';
export {
  createWasmSqlDriver,
  createWasmSqliteStore,
  type WasmDatabase,
  type WasmSqliteStoreOptions,
  type WasmStatement,
} from './wasm-sqlite-store.js';
