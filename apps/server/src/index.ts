// Programmatic entry for tests, embedding and the `svc` CLI (apps/cli). Every export here is public to the monorepo.

export { DATABASE_FILE } from '@screen-service/store-sqlite';
export { type AppDeps, createApp, type ServiceApp } from './app.js';
export { ConfigError, loadConfig, type ServerConfig } from './config.js';
export { type ServeOptions, serveUntilStopped } from './run-server.js';
export { type RunningServer, startServer } from './server.js';
export { createServices, type Services } from './services.js';
