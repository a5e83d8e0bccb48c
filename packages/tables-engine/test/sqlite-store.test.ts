// The SQLite store runs the shared conformance suite on real database files in a temporary directory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { runOps } from '../src/index.js';
import { createSqliteStore } from '../src/sqlite.js';
import { put, table } from './ops.js';
import { runStoreConformance } from './store-conformance.js';

const dir = mkdtempSync(join(tmpdir(), 'tables-engine-'));
let files = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

runStoreConformance({ name: 'sqlite', create: () => createSqliteStore(join(dir, `t${++files}.sqlite`)) });

describe('sqlite store file', () => {
  it('keeps tables and pending deletes across reopening the file', () => {
    const file = join(dir, 'reopen.sqlite');
    const call = { owner: 'u1', agent: 'a', now: 0, timeZone: 'UTC' };
    const first = createSqliteStore(file);
    const answer = runOps(first, {
      ...call,
      ops: [
        table('W', 'A:number', 'B:bool'),
        put('W', undefined, { A: 1, B: true }),
        put('W', 'r1', {}, true),
      ],
    });
    const db = new Database(file);
    const again = createSqliteStore(db);
    expect(again.exportTable({ owner: 'u1', holder: 'a', name: 'W' })!.rows).toEqual([
      { key: 'r1', values: { A: 1, B: true } },
    ]);
    expect(again.listPending('u1').map((p) => p.id)).toEqual([answer.pending[0]!.id]);
    db.close();
  });

  it('refuses a database written by a newer layout', () => {
    const file = join(dir, 'newer.sqlite');
    createSqliteStore(file);
    const db = new Database(file);
    db.exec("INSERT INTO te_migrations (version, name, applied_at) VALUES (99, 'from-the-future', '')");
    expect(() => createSqliteStore(db)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    db.close();
  });
});
