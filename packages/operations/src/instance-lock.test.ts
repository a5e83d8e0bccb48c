// The data-folder lock: one holder at a time, its record names where it listens, a stale record is ignored.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimDataDir, LOCK_FILE, PID_FILE, runningInstance } from './instance-lock.js';

let dataDir: string;
beforeEach(() => {
  dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'svc-ops-lock-')), 'data');
});
afterEach(() => fs.rmSync(path.dirname(dataDir), { recursive: true, force: true }));

const record = () => JSON.parse(fs.readFileSync(path.join(dataDir, PID_FILE), 'utf8'));

describe('claimDataDir', () => {
  it('creates the folder, records this process owner-only, and adds the address once announced', () => {
    const claim = claimDataDir(dataDir, { now: () => Date.UTC(2026, 0, 2) });
    try {
      expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
      expect(fs.statSync(path.join(dataDir, PID_FILE)).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.join(dataDir, LOCK_FILE)).mode & 0o777).toBe(0o600);
      expect(record()).toEqual({
        pid: process.pid,
        host: os.hostname(),
        startedAt: '2026-01-02T00:00:00.000Z',
      });
      claim.announce({ port: 8787, url: 'http://localhost:8787' });
      expect(record()).toMatchObject({ pid: process.pid, port: 8787, url: 'http://localhost:8787' });
      expect(runningInstance(dataDir)).toMatchObject({ pid: process.pid, url: 'http://localhost:8787' });
      // Only the record and the (empty) lock: nothing a backup would pick up, no journal beside the lock.
      expect(fs.readdirSync(dataDir).sort()).toEqual([LOCK_FILE, PID_FILE]);
      expect(fs.statSync(path.join(dataDir, LOCK_FILE)).size).toBe(0);
    } finally {
      claim.release();
    }
  });

  it('refuses a second claim while the first holds the folder, naming it and how to stop it', () => {
    const first = claimDataDir(dataDir);
    first.announce({ port: 8787, url: 'http://localhost:8787' });
    try {
      let refusal: unknown;
      try {
        claimDataDir(dataDir, { waitMs: 0 });
      } catch (err) {
        refusal = err;
      }
      expect(refusal).toMatchObject({ code: 'INSTANCE_RUNNING' });
      const message = (refusal as Error).message;
      expect(message).toContain(`already serving the data folder ${dataDir}`);
      expect(message).toContain(`pid ${process.pid}, http://localhost:8787, started `);
      expect(message).toContain(`Stop that one first (Ctrl-C in its terminal, or \`kill ${process.pid}\`)`);
      expect(message).toContain('SVC_DATA_DIR');
      // The refused claim left the holder's record alone.
      expect(record()).toMatchObject({ pid: process.pid, port: 8787 });
    } finally {
      first.release();
    }
  });

  it('lets the folder go on release: the record is removed and the next claim succeeds', () => {
    const first = claimDataDir(dataDir);
    first.release();
    first.release();
    expect(fs.existsSync(path.join(dataDir, PID_FILE))).toBe(false);
    expect(runningInstance(dataDir)).toBeNull();
    const second = claimDataDir(dataDir, { waitMs: 0 });
    second.release();
  });

  it('ignores a record a crash left behind (its pid may even be alive: only the lock counts)', () => {
    fs.mkdirSync(dataDir, { recursive: true });
    const stale = { pid: process.pid, host: os.hostname(), startedAt: '2020-01-01T00:00:00.000Z', port: 1 };
    fs.writeFileSync(path.join(dataDir, PID_FILE), JSON.stringify(stale));
    fs.writeFileSync(path.join(dataDir, LOCK_FILE), '');
    expect(runningInstance(dataDir)).toBeNull();
    const claim = claimDataDir(dataDir, { waitMs: 0, now: () => Date.UTC(2026, 0, 3) });
    try {
      expect(record()).toMatchObject({ startedAt: '2026-01-03T00:00:00.000Z' });
      expect(record().port).toBeUndefined();
    } finally {
      claim.release();
    }
  });

  it('reports no instance for a folder that does not exist (restore into a new folder)', () => {
    expect(runningInstance(dataDir)).toBeNull();
    expect(fs.existsSync(dataDir)).toBe(false);
  });
});
