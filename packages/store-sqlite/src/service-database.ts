// The service's one SQLite file: where it lives, how it is opened (owner-only modes, WAL, foreign keys),
// every migration it runs, and the service secret kept beside it (`secret.key`) when none is configured.
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '@screen-service/io-kit/atomic-file';
import { mintSecret, type Random, systemRandom } from '@screen-service/registry/kernel';
import { type Migration, runMigrations, schemaVersion } from '@screen-service/tables-engine/migrations';
import Database from 'better-sqlite3';
import { coreMigrations } from './migrations.js';

/** An open service database (better-sqlite3). */
export type ServiceDb = Database.Database;

/** The database's file name inside the data folder. */
export const DATABASE_FILE = 'svc.sqlite';

/**
 * Every migration of the service database: version 1 (the service's own key/value table) and the core's
 * versions from 2 on (`coreMigrations`). Append only: a migration that shipped is never edited.
 */
export const SERVICE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'service-meta',
    sql: 'CREATE TABLE service_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;',
  },
  ...coreMigrations,
];

/** Options of {@link openServiceDatabase}. */
export interface OpenServiceDatabaseOptions {
  /** Default {@link SERVICE_MIGRATIONS}. */
  migrations?: readonly Migration[];
}

/**
 * Opens `<dataDir>/svc.sqlite` (creating the folder and the file), sets WAL, foreign keys and a busy
 * timeout, and applies pending migrations, each in its own transaction. The folder is made 0700 and the
 * database files 0600: the file holds hashes of every credential and, unless configured, the secret.
 *
 * @example
 * ```ts
 * const db = openServiceDatabase('./data');
 * const store = createSqliteStore(db);
 * ```
 */
export function openServiceDatabase(dataDir: string, options: OpenServiceDatabaseOptions = {}): ServiceDb {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dataDir, 0o700);
  const file = path.join(dataDir, DATABASE_FILE);
  // Created owner-only before SQLite opens it: SQLite gives the -wal and -shm files the database's mode.
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  fs.chmodSync(file, 0o600);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  runMigrations(db, options.migrations ?? SERVICE_MIGRATIONS);
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    if (fs.existsSync(f)) fs.chmodSync(f, 0o600);
  }
  return db;
}

/** The secret's file name inside the data folder (beside the database, never in it). */
export const SECRET_FILE = 'secret.key';

/**
 * The service secret (signs app access tokens and photo links): the configured one when given, else the
 * one in `<dataDir>/secret.key` (0600), generated on first start. A secret kept in `service_meta` by
 * older versions moves to the file once and leaves the database, so a copy of the database alone cannot
 * mint sign-ins or photo links. A database without a file (`:memory:`) keeps nothing: the secret lives
 * for the process only.
 *
 * @example
 * ```ts
 * const secret = serviceSecret(db, process.env.SVC_SECRET);
 * ```
 */
export function serviceSecret(
  db: ServiceDb,
  configured: string | undefined,
  random: Random = systemRandom,
): Uint8Array {
  const encode = (v: string) => new TextEncoder().encode(v);
  const fresh = () => mintSecret('', random);
  if (db.memory || !db.name) return encode(configured || fresh());
  const keyFile = path.join(path.dirname(db.name), SECRET_FILE);
  const legacy = db.prepare("SELECT value FROM service_meta WHERE key = 'secret'").get() as
    | { value: string }
    | undefined;
  // Through a temp file and a rename (owner-only), so a crash never leaves a half-written key.
  if (!fs.existsSync(keyFile) && !configured) writeFileAtomicSync(keyFile, `${legacy?.value ?? fresh()}\n`);
  // The old copy goes once the file holds it (or a configured secret replaces it).
  if (legacy && (configured || fs.existsSync(keyFile))) {
    db.prepare("DELETE FROM service_meta WHERE key = 'secret'").run();
  }
  if (configured) return encode(configured);
  fs.chmodSync(keyFile, 0o600);
  return encode(fs.readFileSync(keyFile, 'utf8').trim());
}

/** What `/healthz` reports of the database: reachable, and the schema version it runs. */
export type DatabaseHealth = { ok: true; schema_version: number } | { ok: false; error: string };

/** A cheap probe of an open service database (one `SELECT 1`); never throws. */
export function databaseHealth(db: ServiceDb): DatabaseHealth {
  try {
    db.prepare('SELECT 1').get();
    return { ok: true, schema_version: schemaVersion(db) };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}
