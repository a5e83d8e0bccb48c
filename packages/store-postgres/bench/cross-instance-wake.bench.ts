// Benchmark (issue 20): the cross-instance wake (a tap written through instance A wakes a svc_answers held on
// instance B) against the same wake inside one instance, on PostgreSQL and on SQLite, and svc_show /
// svc_threads throughput on PostgreSQL vs SQLite vs an echo, all in one run. Instances are cores in this
// process, each with its own pool and its own LISTEN connection: the wake really goes through PostgreSQL.
// Issue 42: the database's own speed in the same run, `pgbench -N` (simple update) and `-S` (select only)
// with the same 16 clients against the same database, and svc_show / svc_threads as ratios of them.

import { execFileSync, execSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { type Core, createCore } from '@screen-service/core';
import { createTestCore, fastHasher, seedConnection, seedUser } from '@screen-service/test-kit';
import setupPostgres from '../../../config/postgres-setup.ts';
import { createPostgresServices, type PostgresServices } from '../src/postgres-services.js';
import { createTestDatabase } from '../src/testing.js';

const WAKES = Number(process.env.BENCH_WAKES ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONCURRENCY = 16;
const LINES = 'choose@lunch "Lunch?" Pasta|Salad';

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
const fmt = (n: number) => n.toFixed(2);

let adminUrl = '';
const teardown = await setupPostgres({ provide: (_key: string, url: string) => (adminUrl = url) } as never);
const db = await createTestDatabase(adminUrl);
const opened: PostgresServices[] = [];
const secret = new TextEncoder().encode(randomBytes(32).toString('base64url'));

async function pgInstance(): Promise<Core> {
  const pg = await createPostgresServices(db.url, { poolSize: 8 });
  opened.push(pg);
  return createCore({
    hasher: fastHasher,
    secret,
    urls: 'http://127.0.0.1',
    ...pg.core,
    hostMessageRate: { burst: 1_000_000_000, perMinute: 60_000_000_000 },
  });
}

async function person(core: Core) {
  const user = await seedUser(core.store);
  const { token, agents } = await seedConnection(core.store, user.id, ['bench']);
  const principal = await core.connectionAuth.verify(token);
  return { userId: user.id, agentId: agents[0]!.id, principal };
}

/** Tap through `writer`, wait on `waiter`: the milliseconds from the tap call until the wait returns it. */
async function wakes(writer: Core, waiter: Core, n: number): Promise<number[]> {
  const p = await person(writer);
  const times: number[] = [];
  for (let i = 0; i < n + 10; i++) {
    const shown = await writer.threadOps.show(p.principal, { lines: LINES });
    const waiting = waiter.threadOps.answers(p.principal, { screen_id: shown.screen_id, wait: 10 });
    while (waiter.notifier.listenerCount(p.userId) === 0) await new Promise((r) => setImmediate(r));
    const t0 = performance.now();
    await writer.threads.tap(p.userId, p.agentId, {
      screen_id: shown.screen_id,
      event: { id: 'lunch', value: 'Pasta' },
    });
    const got = await waiting;
    const ms = performance.now() - t0;
    if (got.answers.length !== 1)
      throw new Error(`wake ${i}: expected one answer, got ${got.answers.length}`);
    if (i >= 10) times.push(ms); // the first ten warm the pools and the JIT
  }
  return times.sort((a, b) => a - b);
}

/** CONCURRENCY loops calling `op` for SECONDS: calls per second. */
async function throughput(op: () => Promise<unknown>): Promise<number> {
  let calls = 0;
  const until = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        await op();
        calls++;
      }
    }),
  );
  return calls / SECONDS;
}

/**
 * pgbench's transactions per second on `url` (its tables made there first, scale 1), or null when pgbench is
 * not installed (Debian: `apt-get install postgresql-client`); the same clients and seconds as the calls.
 */
function runPgbench(url: string): { N: number; S: number } | null {
  const run = (args: string[]) =>
    execFileSync('pgbench', [...args, url], { encoding: 'utf8', stdio: 'pipe' });
  try {
    run(['-i', '-q', '-s', '1']);
  } catch (err) {
    console.log(
      `\npgbench could not run (${(err as Error).message.split('\n')[0]}): install postgresql-client`,
    );
    return null;
  }
  const tps = (mode: string) => {
    const out = run(['-n', mode, '-c', String(CONCURRENCY), '-j', '2', '-T', String(SECONDS)]);
    const m = /tps = ([\d.]+)/.exec(out);
    if (!m) throw new Error(`pgbench ${mode} printed no tps:\n${out}`);
    return Number(m[1]);
  };
  return { N: tps('-N'), S: tps('-S') };
}

const a = await pgInstance();
const b = await pgInstance();
const sqlite = createTestCore({
  clockMode: 'running',
  hostMessageRate: { burst: 1_000_000_000, perMinute: 60_000_000_000 },
});

console.log(`load before: ${execSync('uptime').toString().trim()}`);
const rows: [string, number[]][] = [
  ['SQLite, one instance (tap and wait in one process)', await wakes(sqlite, sqlite, WAKES)],
  ['PostgreSQL, one instance (tap and wait on A)', await wakes(a, a, WAKES)],
  ['PostgreSQL, across instances (tap on A, wait on B)', await wakes(a, b, WAKES)],
];
console.log(`\nWake: tap written -> waiting svc_answers returns it (${WAKES} wakes each, ms)`);
const base = pct(rows[0]![1], 0.5);
for (const [label, t] of rows) {
  console.log(
    `  ${label.padEnd(54)} p50 ${fmt(pct(t, 0.5)).padStart(6)}  p99 ${fmt(pct(t, 0.99)).padStart(6)}  max ${fmt(t[t.length - 1]!).padStart(6)}  p50 x${fmt(pct(t, 0.5) / base)} of SQLite`,
  );
}
const cross = rows[2]![1];
console.log(`  goal p99 < 50 ms across instances: ${pct(cross, 0.99) < 50 ? 'met' : 'NOT met'}`);

const pgPerson = await person(a);
const sqlPerson = await person(sqlite);
const echo = await throughput(async () => ({ ok: true }));
const through: [string, number][] = [
  ['echo (an async function returning at once)', echo],
  [
    'svc_show on SQLite',
    await throughput(() => sqlite.threadOps.show(sqlPerson.principal, { lines: LINES })),
  ],
  ['svc_show on PostgreSQL', await throughput(() => a.threadOps.show(pgPerson.principal, { lines: LINES }))],
  ['svc_threads on SQLite', await throughput(() => sqlite.threadOps.threads(sqlPerson.principal))],
  ['svc_threads on PostgreSQL', await throughput(() => a.threadOps.threads(pgPerson.principal))],
];
console.log(`\nThroughput, ${CONCURRENCY} concurrent callers for ${SECONDS} s each (calls/s; one process)`);
for (const [label, n] of through) {
  console.log(`  ${label.padEnd(44)} ${n.toFixed(0).padStart(9)}  x${(n / echo).toFixed(4)} of echo`);
}
const pgbench = runPgbench(db.url);
if (pgbench) {
  const showPg = through[2]![1];
  const threadsPg = through[4]![1];
  console.log(
    `\nPostgreSQL's own speed on the same database, ${CONCURRENCY} pgbench clients for ${SECONDS} s each`,
  );
  console.log(`  pgbench -N (simple update: 3 writes + 1 read)   ${pgbench.N.toFixed(0).padStart(9)} tx/s`);
  console.log(`  pgbench -S (select only)                         ${pgbench.S.toFixed(0).padStart(9)} tx/s`);
  const ratio = (label: string, n: number, of: number) =>
    console.log(
      `  ${label.padEnd(44)} ${(n / of).toFixed(2).padStart(9)}  ${n / of >= 0.5 ? 'goal >= 0.50 met' : 'goal >= 0.50 NOT met'}`,
    );
  ratio('svc_show on PostgreSQL / pgbench -N', showPg, pgbench.N);
  ratio('svc_threads on PostgreSQL / pgbench -S', threadsPg, pgbench.S);
}
console.log(`\nload after: ${execSync('uptime').toString().trim()}`);

sqlite.close();
for (const pg of opened) await pg.close();
await db.drop();
await teardown();
