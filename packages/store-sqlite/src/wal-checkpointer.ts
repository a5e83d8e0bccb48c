// Write-ahead-log checkpoints off the event loop. SQLite's automatic checkpoint runs inside whichever commit
// crosses the WAL threshold and fsyncs the database there: measured here at 50-120 ms, during which the
// service's one event loop answers nothing (every wait, stream and push waits with it). A worker thread with its
// own connection checkpoints instead (PASSIVE: writers and readers go on), and the main connection's own
// automatic checkpoint stays only as a far backstop for a stopped worker.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { ServiceDb } from './service-database.js';

/** The main connection's automatic checkpoint while the worker runs (pages; about 80 MB of WAL at 4 KB). */
export const BACKSTOP_CHECKPOINT_PAGES = 20_000;
/** SQLite's default, given back on stop. */
const DEFAULT_CHECKPOINT_PAGES = 1000;

/** What the worker did, for logs and tests. */
export interface CheckpointReport {
  /** WAL frames in the log when the checkpoint ran, and how many were copied into the database. */
  logFrames: number;
  checkpointed: number;
  ms: number;
}

export interface WalCheckpointerOptions {
  /** How often the worker looks at a log that did not move since its last look (default 1 s). */
  intervalMs?: number;
  /**
   * How soon it looks again after a look that found new frames (default 100 ms): under steady writes each
   * checkpoint copies a tenth of a second of log, and the main connection's backstop, which copies whatever
   * the worker has not, finds little left (ADR 0205's addendum: 1 s let it copy up to a second of writes on
   * the event loop).
   */
  busyIntervalMs?: number;
  onCheckpoint?: (report: CheckpointReport) => void;
  onError?: (error: Error) => void;
}

export interface WalCheckpointer {
  /** Asks the worker for a checkpoint now; resolves with what it did. */
  checkpoint(): Promise<CheckpointReport>;
  /** Stops the worker and gives the main connection its automatic checkpoint back. */
  stop(): Promise<void>;
}

// Runs in the worker (CommonJS eval): one connection to the same file, PASSIVE checkpoints when due.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
const run = () => {
  const t = performance.now();
  const size = db.pragma('wal_checkpoint(PASSIVE)')[0];
  return { logFrames: size.log, checkpointed: size.checkpointed, ms: performance.now() - t };
};
let seen = -1;
let timer;
const tick = () => {
  let moved = false;
  try {
    // data_version changes when another connection committed since this one last asked: the log moved (its
    // frame count cannot tell, a restarted log may grow back to the same count). PASSIVE on a log already
    // copied does no I/O; report only when the log moved.
    const version = db.pragma('data_version', { simple: true });
    moved = version !== seen;
    seen = version;
    const r = run();
    if (moved) parentPort.postMessage({ type: 'done', report: r });
  } catch (e) { parentPort.postMessage({ type: 'error', message: String(e && e.message || e) }); }
  // Soon again while commits come, at the idle pace once they stopped.
  timer = setTimeout(tick, moved ? workerData.busyIntervalMs : workerData.intervalMs);
};
timer = setTimeout(tick, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m.type === 'stop') { clearTimeout(timer); db.close(); parentPort.close(); return; }
  try { parentPort.postMessage({ type: 'asked', id: m.id, report: run() }); }
  catch (e) { parentPort.postMessage({ type: 'error', id: m.id, message: String(e && e.message || e) }); }
});
`;

/**
 * Starts checkpointing `db`'s write-ahead log from a worker thread and raises the connection's own automatic
 * checkpoint to {@link BACKSTOP_CHECKPOINT_PAGES}. Stop it before closing the database.
 *
 * @example
 * ```ts
 * const db = openServiceDatabase('./data');
 * const checkpoints = startWalCheckpointer(db);
 * // ... on shutdown
 * await checkpoints.stop();
 * db.close();
 * ```
 */
export function startWalCheckpointer(db: ServiceDb, options: WalCheckpointerOptions = {}): WalCheckpointer {
  if (db.memory) throw new TypeError('startWalCheckpointer needs a database file, not an in-memory database');
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      driver,
      file: db.name,
      intervalMs: options.intervalMs ?? 1000,
      busyIntervalMs: options.busyIntervalMs ?? Math.min(100, options.intervalMs ?? 100),
    },
  });
  worker.unref();
  db.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`);
  const asked = new Map<number, { resolve: (r: CheckpointReport) => void; reject: (e: Error) => void }>();
  let next = 0;
  let stopped: Promise<void> | null = null;
  worker.on('message', (m: { type: string; id?: number; report?: CheckpointReport; message?: string }) => {
    const waiter = m.id === undefined ? undefined : asked.get(m.id);
    if (m.id !== undefined) asked.delete(m.id);
    if (asked.size === 0 && !stopped) worker.unref();
    if (m.type === 'error') {
      const error = new Error(`WAL checkpoint failed: ${m.message}`);
      if (waiter) waiter.reject(error);
      else options.onError?.(error);
      return;
    }
    if (m.report) options.onCheckpoint?.(m.report);
    if (waiter && m.report) waiter.resolve(m.report);
  });
  worker.on('error', (error) => options.onError?.(error));
  let exited = false;
  // A worker that died (its database file moved away, its driver failed to load) checkpoints nothing: the
  // main connection takes SQLite's own automatic checkpoint back, and nothing waits for the dead worker.
  worker.once('exit', (code) => {
    exited = true;
    for (const w of asked.values()) w.reject(new Error('the WAL checkpointer stopped'));
    asked.clear();
    if (stopped) return;
    if (db.open) db.pragma(`wal_autocheckpoint = ${DEFAULT_CHECKPOINT_PAGES}`);
    options.onError?.(
      new Error(
        `WAL checkpoint worker exited (code ${code}); commits checkpoint the log themselves again (restart the service to move them off the event loop)`,
      ),
    );
  });
  return {
    checkpoint() {
      if (stopped || exited) return Promise.reject(new Error('the WAL checkpointer is stopped'));
      const id = ++next;
      return new Promise((resolve, reject) => {
        asked.set(id, { resolve, reject });
        worker.ref();
        worker.postMessage({ type: 'check', id });
      });
    },
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        if (exited) {
          resolve();
          return;
        }
        worker.once('exit', () => resolve());
        // Held while it stops: an unref'd worker would let the process end before its database closed.
        worker.ref();
        worker.postMessage({ type: 'stop' });
      }).then(() => {
        for (const w of asked.values()) w.reject(new Error('the WAL checkpointer stopped'));
        asked.clear();
        if (db.open) db.pragma(`wal_autocheckpoint = ${DEFAULT_CHECKPOINT_PAGES}`);
      });
      return stopped;
    },
  };
}
