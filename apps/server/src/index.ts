// Programmatic entry for tests and embedding. Every export here is public to the monorepo.
export { type AppDeps, createApp } from './app.js';
export { ConfigError, loadConfig, type ServerConfig } from './config.js';
export { DATABASE_FILE, type Db, migrate, openDatabase, schemaVersion } from './db/open-database.js';
export { type RunningServer, startServer } from './server.js';
