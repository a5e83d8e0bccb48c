import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE, migrate, openDatabase, schemaVersion } from './open-database.js';

const dirs: string[] = [];
function tempDir() {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-db-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('openDatabase', () => {
  it('creates the data dir and the SQLite file with WAL and foreign keys on', () => {
    const dir = path.join(tempDir(), 'nested', 'data');
    const db = openDatabase(dir);
    expect(fs.existsSync(path.join(dir, DATABASE_FILE))).toBe(true);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(schemaVersion(db)).toBeGreaterThanOrEqual(1);
    db.close();
  });

  it('is idempotent: reopening applies nothing twice', () => {
    const dir = tempDir();
    const first = openDatabase(dir);
    const v = schemaVersion(first);
    const count = (db: typeof first) =>
      (db.prepare('SELECT COUNT(*) AS n FROM schema_migrations').get() as { n: number }).n;
    // Versions may skip numbers (each branch of work reserves its own), so compare counts, not the top version.
    const applied = count(first);
    first.close();
    const again = openDatabase(dir);
    expect(schemaVersion(again)).toBe(v);
    expect(count(again)).toBe(applied);
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
