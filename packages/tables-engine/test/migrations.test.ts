// The numbered-migration runner on real SQLite files, and the engine's own layout upgrading an old file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { MigrationError, runMigrations, schemaVersion } from '../src/migrations-index.js';
import { createSqliteStore } from '../src/sqlite.js';

const dir = mkdtempSync(join(tmpdir(), 'te-migrations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = () => new Database(join(dir, `m${n++}.sqlite`));

describe('runMigrations', () => {
  it('applies in version order once, records each, and reopening applies nothing', async () => {
    const db = fresh();
    const list = [
      { version: 2, name: 'b', sql: 'ALTER TABLE a ADD COLUMN y TEXT' },
      { version: 1, name: 'a', sql: 'CREATE TABLE a (x INTEGER)' },
    ];
    expect(runMigrations(db, list, { now: () => 0 })).toBe(2);
    expect(runMigrations(db, list)).toBe(2);
    expect(
      db.prepare('SELECT version, name, applied_at FROM schema_migrations ORDER BY version').all(),
    ).toEqual([
      { version: 1, name: 'a', applied_at: '1970-01-01T00:00:00.000Z' },
      { version: 2, name: 'b', applied_at: '1970-01-01T00:00:00.000Z' },
    ]);
    db.close();
  });

  it('rolls a failing migration back whole and keeps the earlier ones', async () => {
    const db = fresh();
    expect(() =>
      runMigrations(db, [
        { version: 1, name: 'a', sql: 'CREATE TABLE a (x INTEGER)' },
        { version: 2, name: 'b', sql: 'CREATE TABLE b (x INTEGER); INSERT INTO nowhere VALUES (1);' },
      ]),
    ).toThrow(/nowhere/);
    expect(schemaVersion(db)).toBe(1);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'b'").get()).toBeUndefined();
    db.close();
  });

  it('keeps separate lists apart by table name', async () => {
    const db = fresh();
    runMigrations(db, [{ version: 1, name: 'x', sql: 'CREATE TABLE x (v INTEGER)' }], {
      table: 'one_migrations',
    });
    runMigrations(db, [{ version: 1, name: 'y', sql: 'CREATE TABLE y (v INTEGER)' }], {
      table: 'two_migrations',
    });
    expect(schemaVersion(db, { table: 'one_migrations' })).toBe(1);
    expect(schemaVersion(db, { table: 'two_migrations' })).toBe(1);
    expect(schemaVersion(db)).toBe(0);
    db.close();
  });

  it('refuses duplicate or non-positive versions, a bad table name, and a database newer than the list', async () => {
    const db = fresh();
    const dup = [
      { version: 1, name: 'a', sql: '' },
      { version: 1, name: 'b', sql: '' },
    ];
    expect(() => runMigrations(db, dup)).toThrow(expect.objectContaining({ code: 'INVALID_MIGRATIONS' }));
    expect(() => runMigrations(db, [{ version: 0, name: 'z', sql: '' }])).toThrow(MigrationError);
    expect(() => runMigrations(db, [], { table: 'x; DROP TABLE y' })).toThrow(/letters, digits/);
    runMigrations(db, [{ version: 3, name: 'c', sql: 'CREATE TABLE c (x INTEGER)' }]);
    expect(() => runMigrations(db, [{ version: 1, name: 'a', sql: '' }])).toThrow(
      expect.objectContaining({ code: 'SCHEMA_TOO_NEW' }),
    );
    db.close();
  });
});

describe('the engine layout as migrations', () => {
  it('upgrades a file written with the old te_schema marker, keeping its rows', async () => {
    const db = fresh();
    db.exec(`CREATE TABLE te_tables (id INTEGER PRIMARY KEY, owner TEXT NOT NULL, holder TEXT NOT NULL,
      name TEXT NOT NULL, cols TEXT NOT NULL, next_row INTEGER NOT NULL DEFAULT 1, next_seq INTEGER NOT NULL DEFAULT 1,
      row_count INTEGER NOT NULL DEFAULT 0, UNIQUE (owner, holder, name));
      INSERT INTO te_tables (owner, holder, name, cols) VALUES ('u1', 'a', 'Old', '[]');
      CREATE TABLE te_schema (version INTEGER NOT NULL); INSERT INTO te_schema VALUES (1);`);
    const store = createSqliteStore(db);
    expect((await store.listTables('u1', 'a')).map((t) => t.name)).toEqual(['Old']);
    expect(schemaVersion(db, { table: 'te_migrations' })).toBe(2);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'te_schema'").get()).toBeUndefined();
    expect(db.prepare('SELECT name FROM te_tables').all()).toEqual([{ name: 'Old' }]);
    db.close();
  });
});
