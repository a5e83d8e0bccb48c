// Opens (creating if absent) the embedded SQLite database and brings its schema up to date.
import fs from 'node:fs';
import path from 'node:path';
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

/** Applies every migration newer than the recorded version, each in its own transaction. */
export function migrate(db: Db, list: readonly Migration[]): number {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
  ) STRICT`);
  const current = schemaVersion(db);
  const sorted = [...list].sort((a, b) => a.version - b.version);
  for (const m of sorted) {
    if (m.version <= current) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        m.version,
        m.name,
        new Date().toISOString(),
      );
    })();
  }
  return schemaVersion(db);
}

export function schemaVersion(db: Db): number {
  const row = db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null };
  return row.v ?? 0;
}
