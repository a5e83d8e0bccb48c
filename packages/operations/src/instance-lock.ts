// One server per data folder: an exclusive lock on `<dataDir>/svc.lock` (the kernel drops it when the
// process ends, even by SIGKILL) plus `<dataDir>/svc.pid`, which says who holds it and where it listens.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { OperationsError } from './errors.js';

/** The record's name inside the data folder: who serves it (never backed up). */
export const PID_FILE = 'svc.pid';
/** The lock's name inside the data folder (an empty SQLite file; never backed up, never removed). */
export const LOCK_FILE = 'svc.lock';

/** The instance serving a data folder, as its record says. */
export interface RunningInstance {
  /** Its process id, or null when the lock is held but the record is missing or unreadable. */
  pid: number | null;
  host: string;
  startedAt: string;
  /** Where it listens, once it does. */
  port?: number;
  url?: string;
}

/** The hold of a data folder returned by {@link claimDataDir}. */
export interface DataDirClaim {
  /** Adds where this instance listens to its record, so another one's refusal can name it. */
  announce(where: { port: number; url: string }): void;
  /** Removes the record (when it is still ours) and lets the lock go. Calling it again does nothing. */
  release(): void;
}

/** Options of {@link claimDataDir}. */
export interface ClaimDataDirOptions {
  now?: () => number;
  /** How long to wait for a lock another process is about to let go (ms); default 1000. */
  waitMs?: number;
}

/**
 * Takes the data folder for this process, or throws `INSTANCE_RUNNING` naming the one that holds it
 * (pid, address, how to stop it). The lock is SQLite's exclusive file lock (POSIX advisory locks), so a
 * crashed server leaves nothing to clean up: the next start takes the folder over.
 *
 * @throws {OperationsError} `INSTANCE_RUNNING` when another live process serves `dataDir`.
 * @example
 * ```ts
 * const claim = claimDataDir(dataDir);
 * claim.announce({ port: 8787, url: 'http://localhost:8787' });
 * // ... on stop, after the database is closed:
 * claim.release();
 * ```
 */
export function claimDataDir(dataDir: string, options: ClaimDataDirOptions = {}): DataDirClaim {
  const lock = takeLock(dataDir, options.waitMs ?? 1000);
  if (!lock) {
    throw new OperationsError('INSTANCE_RUNNING', serveRefusal(dataDir, readInstance(dataDir)));
  }
  const file = path.join(dataDir, PID_FILE);
  let me: RunningInstance = {
    pid: process.pid,
    host: os.hostname(),
    startedAt: new Date((options.now ?? Date.now)()).toISOString(),
  };
  const write = () => fs.writeFileSync(file, `${JSON.stringify(me)}\n`, { mode: 0o600 });
  try {
    write();
  } catch (err) {
    lock.close();
    throw err;
  }
  let released = false;
  return {
    announce(where) {
      if (released) return;
      me = { ...me, port: where.port, url: where.url };
      write();
    },
    release() {
      if (released) return;
      released = true;
      try {
        const current = readInstance(dataDir);
        if (current?.pid === process.pid && current.host === me.host) fs.rmSync(file, { force: true });
      } finally {
        // The lock goes last: nobody may take the folder while our record is still in it.
        lock.close();
      }
    },
  };
}

/**
 * The instance serving `dataDir`, or null when none does (no lock held: a record left by a crash is
 * stale and ignored). Used by `restore`, which must never swap a folder under a running server.
 */
export function runningInstance(dataDir: string): RunningInstance | null {
  if (!fs.existsSync(path.join(dataDir, LOCK_FILE))) return null;
  const probe = takeLock(dataDir, 0);
  if (probe) {
    probe.close();
    return null;
  }
  return readInstance(dataDir) ?? { pid: null, host: os.hostname(), startedAt: '' };
}

/** "pid 123, http://localhost:8787, started ..." for the messages that name a running instance. */
export function describeInstance(running: RunningInstance | null): string {
  if (!running || running.pid === null) return 'a process whose record is missing';
  const parts = [`pid ${running.pid}${running.host === os.hostname() ? '' : ` on ${running.host}`}`];
  if (running.url) parts.push(running.url);
  else if (running.port !== undefined) parts.push(`port ${running.port}`);
  if (running.startedAt) parts.push(`started ${running.startedAt}`);
  return parts.join(', ');
}

function serveRefusal(dataDir: string, running: RunningInstance | null): string {
  const kill = running?.pid ? `, or \`kill ${running.pid}\`` : '';
  return (
    `Another Screen Service is already serving the data folder ${dataDir} (${describeInstance(running)}). ` +
    `One folder, one server: a second one would take its phones' messages. Stop that one first (Ctrl-C in its terminal${kill}), ` +
    'or give this one its own folder with SVC_DATA_DIR (or --data-dir).'
  );
}

/** Opens the lock file and takes SQLite's exclusive lock on it; null when another connection holds it. */
function takeLock(dataDir: string, waitMs: number): Database.Database | null {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, LOCK_FILE);
  // Created owner-only before SQLite opens it (SQLite would create it with the umask's mode).
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  const db = new Database(file, { timeout: waitMs });
  try {
    // In exclusive locking mode the lock taken by BEGIN EXCLUSIVE stays until the connection closes.
    // Nothing is ever written, so the journal lives in memory: on disk SQLite would keep
    // `svc.lock-journal` beside the lock while it is held (and a backup would copy it). This build
    // refuses journal_mode OFF.
    db.pragma('journal_mode = MEMORY');
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    return db;
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY') return null;
    throw err;
  }
}

function readInstance(dataDir: string): RunningInstance | null {
  try {
    const parsed = JSON.parse(
      fs.readFileSync(path.join(dataDir, PID_FILE), 'utf8'),
    ) as Partial<RunningInstance>;
    if (typeof parsed.pid !== 'number' || typeof parsed.host !== 'string') return null;
    return {
      pid: parsed.pid,
      host: parsed.host,
      startedAt: String(parsed.startedAt ?? ''),
      ...(typeof parsed.port === 'number' ? { port: parsed.port } : {}),
      ...(typeof parsed.url === 'string' ? { url: parsed.url } : {}),
    };
  } catch {
    return null;
  }
}
