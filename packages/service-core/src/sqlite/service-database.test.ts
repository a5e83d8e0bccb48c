import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runMigrations as migrate, schemaVersion } from '@screen-service/tables-engine/migrations';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DATABASE_FILE,
  openServiceDatabase as openDatabase,
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

  it('keeps one generated secret, and a configured one wins', () => {
    const db = openDatabase(tempDir());
    const first = serviceSecret(db, undefined);
    expect(first.length).toBeGreaterThan(30);
    expect(serviceSecret(db, undefined)).toEqual(first);
    expect(new TextDecoder().decode(serviceSecret(db, 'x'.repeat(32)))).toBe('x'.repeat(32));
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
