import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runMigrations as migrate, schemaVersion } from '@screen-service/tables-engine/migrations';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DATABASE_FILE,
  openServiceDatabase as openDatabase,
  SECRET_FILE,
  SERVICE_MIGRATIONS,
  serviceSecret,
} from './service-database.js';

const dirs: string[] = [];
function tempDir() {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-db-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('openServiceDatabase', () => {
  it('keeps no rule in the schema: the only triggers left follow deletes a cascade makes (ADR 0241)', () => {
    const db = openDatabase(tempDir());
    const triggers = db
      .prepare("SELECT name, tbl_name FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
      .all();
    // Each runs on deletes a cascade makes, which no rule sees: a photo's file queued for removal, a receipt
    // batch no receipt names any more (ADR 0308), and a deleted account's relay table rows (the engine's rows
    // carry no foreign key).
    expect(triggers).toEqual([
      { name: 'photos_queue_removal', tbl_name: 'photos' },
      { name: 'receipt_batches_release', tbl_name: 'answer_receipts' },
      { name: 'users_delete_relay_tables', tbl_name: 'users' },
    ]);
    db.close();
  });

  it('creates the data dir and the SQLite file with WAL and foreign keys on', () => {
    const dir = path.join(tempDir(), 'nested', 'data');
    const db = openDatabase(dir);
    expect(fs.existsSync(path.join(dir, DATABASE_FILE))).toBe(true);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(schemaVersion(db)).toBeGreaterThanOrEqual(1);
    db.close();
  });

  it('keeps the folder 0700 and the database files 0600, even when they were looser before', () => {
    const dir = tempDir();
    fs.chmodSync(dir, 0o755);
    const db = openDatabase(dir);
    db.prepare("INSERT INTO service_meta (key, value) VALUES ('k', 'v')").run();
    db.close();
    fs.chmodSync(path.join(dir, DATABASE_FILE), 0o644);
    openDatabase(dir).close();
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    for (const f of fs.readdirSync(dir).filter((n) => n.startsWith(DATABASE_FILE))) {
      expect(fs.statSync(path.join(dir, f)).mode & 0o777, f).toBe(0o600);
    }
  });

  it('keeps one generated secret in secret.key (0600), never in the database, and a configured one wins', () => {
    const dir = tempDir();
    const db = openDatabase(dir);
    const first = serviceSecret(db, undefined);
    expect(first.length).toBeGreaterThan(30);
    expect(serviceSecret(db, undefined)).toEqual(first);
    expect(new TextDecoder().decode(serviceSecret(db, 'x'.repeat(32)))).toBe('x'.repeat(32));
    const keyFile = path.join(dir, SECRET_FILE);
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(keyFile, 'utf8').trim()).toBe(new TextDecoder().decode(first));
    expect(db.prepare("SELECT value FROM service_meta WHERE key = 'secret'").get()).toBeUndefined();
    db.close();
    // A copy of the database alone (the key file left behind) holds no trace of the key.
    const bytes = fs.readFileSync(path.join(dir, DATABASE_FILE));
    expect(bytes.includes(Buffer.from(new TextDecoder().decode(first)))).toBe(false);
  });

  it('moves a secret an older version kept in the database into secret.key once', () => {
    const dir = tempDir();
    const db = openDatabase(dir);
    db.prepare("INSERT INTO service_meta (key, value) VALUES ('secret', 'old-secret-kept-in-the-db')").run();
    expect(new TextDecoder().decode(serviceSecret(db, undefined))).toBe('old-secret-kept-in-the-db');
    expect(db.prepare("SELECT value FROM service_meta WHERE key = 'secret'").get()).toBeUndefined();
    expect(fs.readFileSync(path.join(dir, SECRET_FILE), 'utf8').trim()).toBe('old-secret-kept-in-the-db');
    db.close();
    const again = openDatabase(dir);
    expect(new TextDecoder().decode(serviceSecret(again, undefined))).toBe('old-secret-kept-in-the-db');
    again.close();
  });

  it('makes the WAL and shared-memory files 0600 while the database is in use', () => {
    const dir = tempDir();
    const db = openDatabase(dir);
    db.prepare("INSERT INTO service_meta (key, value) VALUES ('k', 'v')").run();
    const names = fs.readdirSync(dir).filter((n) => n.startsWith(DATABASE_FILE));
    expect(names).toEqual(
      expect.arrayContaining([DATABASE_FILE, `${DATABASE_FILE}-wal`, `${DATABASE_FILE}-shm`]),
    );
    for (const f of names) expect(fs.statSync(path.join(dir, f)).mode & 0o777, f).toBe(0o600);
    db.close();
  });

  it('is idempotent: reopening applies nothing twice', () => {
    const dir = tempDir();
    const first = openDatabase(dir);
    const v = schemaVersion(first);
    first.close();
    const again = openDatabase(dir);
    expect(schemaVersion(again)).toBe(v);
    const rows = again.prepare('SELECT COUNT(*) AS n FROM schema_migrations').get() as { n: number };
    // One row per migration, and the versions are contiguous up to the newest.
    expect(rows.n).toBe(SERVICE_MIGRATIONS.length);
    expect(v).toBe(SERVICE_MIGRATIONS.at(-1)!.version);
    again.close();
  });

  it('applies only newer migrations and rolls back a failing one whole', () => {
    const db = openDatabase(tempDir(), {
      migrations: [{ version: 1, name: 'a', sql: 'CREATE TABLE a (x INTEGER)' }],
    });
    expect(() =>
      migrate(db, [
        { version: 1, name: 'a', sql: 'CREATE TABLE a (x INTEGER)' },
        { version: 2, name: 'b', sql: 'CREATE TABLE b (x INTEGER); INSERT INTO nowhere VALUES (1);' },
      ]),
    ).toThrow(/nowhere/);
    expect(schemaVersion(db)).toBe(1);
    const b = db.prepare("SELECT name FROM sqlite_master WHERE name = 'b'").get();
    expect(b).toBeUndefined();
    db.close();
  });
});
