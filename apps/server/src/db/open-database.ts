// Opens (creating if absent) the embedded SQLite database and brings its schema up to date.
import fs from 'node:fs';
import path from 'node:path';
import { schemaVersion as readSchemaVersion, runMigrations } from '@screen-service/service-core/sqlite';
import Database from 'better-sqlite3';
import { migrations as defaultMigrations, type Migration } from './migrations.js';

export type Db = Database.Database;

export interface OpenDatabaseOptions {
  /** Defaults to the service's own migrations. */
  migrations?: readonly Migration[];
}

export const DATABASE_FILE = 'svc.sqlite';

/** Opens `<dataDir>/svc.sqlite` with WAL and foreign keys on, and applies pending migrations. */
export function openDatabase(dataDir: string, options: OpenDatabaseOptions = {}): Db {
  fs.mkdirSync(dataDir, { recursive: true });
  const db = new Database(path.join(dataDir, DATABASE_FILE));
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  migrate(db, options.migrations ?? defaultMigrations);
  return db;
}

/** Applies every migration newer than the recorded version, each in its own transaction (the shared runner). */
export function migrate(db: Db, list: readonly Migration[]): number {
  return runMigrations(db, list);
}

/** The highest applied migration version (0 for a fresh file). */
export function schemaVersion(db: Db): number {
  return readSchemaVersion(db);
}
