import fs from 'node:fs';
import { createTestStore, type TestStore } from '@screen-service/test-kit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BACKSTOP_CHECKPOINT_PAGES, startWalCheckpointer } from './wal-checkpointer.js';

let t: TestStore | undefined;
afterEach(() => {
  t?.close();
  t = undefined;
});

const walFrames = (db: TestStore['db']) =>
  (db.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[])[0]!;

describe('startWalCheckpointer', () => {
  it('copies the log into the database from a worker, and the main connection stops checkpointing on commit', async () => {
    t = createTestStore();
    const reports: number[] = [];
    const cp = startWalCheckpointer(t.db, {
      intervalMs: 50,
      onCheckpoint: (r) => reports.push(r.checkpointed),
    });
    expect(t.db.pragma('wal_autocheckpoint', { simple: true })).toBe(BACKSTOP_CHECKPOINT_PAGES);
    t.db.exec('CREATE TABLE bulk (v TEXT)');
    const insert = t.db.prepare('INSERT INTO bulk (v) VALUES (?)');
    for (let i = 0; i < 3000; i++) insert.run('x'.repeat(300));
    // Past SQLite's default threshold (1000 pages) the commits left the log alone: the worker copies it.
    await vi.waitFor(() => expect(reports.some((n) => n > 1000)).toBe(true), { timeout: 10_000 });
    const asked = await cp.checkpoint();
    expect(asked.checkpointed).toBe(asked.logFrames);
    await cp.stop();
    expect(t.db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    await expect(cp.checkpoint()).rejects.toThrow(/stopped/);
    expect(t.db.prepare('SELECT count(*) AS n FROM bulk').get()).toEqual({ n: 3000 });
  });

  it('looks again soon while the log grows, and at the idle pace once it stopped', async () => {
    t = createTestStore();
    const at: number[] = [];
    const cp = startWalCheckpointer(t.db, {
      intervalMs: 600,
      busyIntervalMs: 20,
      onCheckpoint: () => at.push(performance.now()),
    });
    t.db.exec('CREATE TABLE bulk (v TEXT)');
    const insert = t.db.prepare('INSERT INTO bulk (v) VALUES (?)');
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
    await vi.waitFor(() => expect(at.length).toBeGreaterThan(0), { timeout: 5000 });
    // Writes for 1.5 s: at most three looks at the idle pace, many at the busy one once it saw them.
    const start = performance.now();
    while (performance.now() - start < 1500) {
      insert.run('x'.repeat(300));
      await pause(5);
    }
    const during = at.filter((x) => x >= start).length;
    expect(during).toBeGreaterThanOrEqual(8);
    // Quiet: the next looks find the log as it was and report nothing (the last busy look may still come).
    await pause(400);
    const settled = at.length;
    await pause(700);
    expect(at.length).toBe(settled);
    await cp.stop();
  });

  it('a worker that dies gives the main connection its automatic checkpoint back, and stop still ends', async () => {
    t = createTestStore();
    const errors: string[] = [];
    const cp = startWalCheckpointer(t.db, { onError: (e) => errors.push(e.message) });
    // The worker opens the file after this returns: moved away, it cannot, and exits.
    const file = t.db.name;
    fs.renameSync(file, `${file}.away`);
    try {
      await vi.waitFor(() => expect(errors.join('\n')).toMatch(/worker exited/), { timeout: 10_000 });
    } finally {
      fs.renameSync(`${file}.away`, file);
    }
    expect(t.db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    await expect(cp.checkpoint()).rejects.toThrow(/stopped/);
    await cp.stop();
  });

  it('refuses an in-memory database with the reason', async () => {
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(':memory:');
    expect(() => startWalCheckpointer(db)).toThrow(/needs a database file/);
    db.close();
  });

  it('a log written while nothing checkpoints stays in the log (the worker is what moves it)', () => {
    t = createTestStore();
    t.db.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`);
    t.db.exec('CREATE TABLE bulk (v TEXT)');
    const insert = t.db.prepare('INSERT INTO bulk (v) VALUES (?)');
    for (let i = 0; i < 3000; i++) insert.run('x'.repeat(300));
    const { log } = walFrames(t.db);
    expect(log).toBeGreaterThan(1000);
  });
});
