// Benchmark (issue 20): the cross-instance wake (a tap written through instance A wakes a svc_answers held on
// instance B) against the same wake inside one instance, on PostgreSQL and on SQLite, and svc_show /
// svc_threads throughput on PostgreSQL vs SQLite vs an echo, all in one run. Instances are cores in this
// process, each with its own pool and its own LISTEN connection: the wake really goes through PostgreSQL.
// Issue 42: the database's own speed in the same run, `pgbench -N` (simple update) and `-S` (select only)
// with the same 16 clients against the same database, and svc_show / svc_threads as ratios of them: three
// rounds of call window then pgbench window (BENCH_ROUNDS), the median judged, CPU per operation beside.

import { execFileSync, execSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type Core, createCore } from '@screen-service/core';
import { createTestCore, fastHasher, seedConnection, seedUser } from '@screen-service/test-kit';
import setupPostgres from '../../../config/postgres-setup.ts';
import { createPostgresServices, type PostgresServices } from '../src/postgres-services.js';
import { createTestDatabase } from '../src/testing.js';
import { type CpuSample, cpuMeter, perOp } from './cpu-meter.js';

type CpuMeter = { sample(): CpuSample };

const WAKES = Number(process.env.BENCH_WAKES ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
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

/** CONCURRENCY loops calling `op` (with the loop's number) for SECONDS: calls per second. */
async function throughput(op: (loop: number) => Promise<unknown>): Promise<number> {
  let calls = 0;
  const until = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, loop) => {
      while (performance.now() < until) {
        await op(loop);
        calls++;
      }
    }),
  );
  return calls / SECONDS;
}

/**
 * Makes pgbench's tables on `url` (scale 1): false when pgbench is not installed (Debian: `apt-get install
 * postgresql-client`).
 */
function pgbenchInit(url: string): boolean {
  try {
    execFileSync('pgbench', ['-i', '-q', '-s', '1', url], { stdio: 'pipe' });
    return true;
  } catch (err) {
    console.log(
      `\npgbench could not run (${(err as Error).message.split('\n')[0]}): install postgresql-client`,
    );
    return false;
  }
}

/** One measured window: operations per second and CPU microseconds per operation. */
interface Window {
  rate: number;
  cpu: ReturnType<typeof perOp>;
}

/** pgbench `mode` with the same clients and seconds as the calls, and its CPU per transaction. */
function pgbenchWindow(url: string, meter: CpuMeter, mode: string): Window {
  const before = meter.sample();
  const out = execFileSync(
    'pgbench',
    ['-n', mode, '-c', String(CONCURRENCY), '-j', '2', '-T', String(SECONDS), url],
    { encoding: 'utf8', stdio: 'pipe' },
  );
  const after = meter.sample();
  const tps = /tps = ([\d.]+)/.exec(out);
  const done = /actually processed: (\d+)/.exec(out);
  if (!tps || !done) throw new Error(`pgbench ${mode} printed no tps:\n${out}`);
  return { rate: Number(tps[1]), cpu: perOp(before, after, Number(done[1])) };
}

/** `throughput` with the CPU each call cost (this process and the cluster). */
async function callWindow(meter: CpuMeter, op: (loop: number) => Promise<unknown>): Promise<Window> {
  const before = meter.sample();
  const rate = await throughput(op);
  return { rate, cpu: perOp(before, meter.sample(), rate * SECONDS) };
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
if (pgbenchInit(db.url)) await ratios();
console.log(`\nload after: ${execSync('uptime').toString().trim()}`);

sqlite.close();
for (const pg of opened) await pg.close();
await db.drop();
await teardown();

/**
 * The issue 42 ratios: svc_show on PostgreSQL against `pgbench -N`, svc_threads against `-S`, on the same
 * database, ROUNDS times, each call window next to its pgbench window (other work on the machine moves
 * both alike); the goal is judged on the median round. CPU per operation is printed beside: this process
 * (node) or pgbench's client, plus the cluster's backends.
 */
async function ratios(): Promise<void> {
  const meter = await cpuMeter(adminUrl);
  const p = await person(a);
  // The same calls spread: each caller its own person, connection and thread (nothing of one thread to write
  // together, ADR 0296), beside the goal's one thread.
  const people = await Promise.all(Array.from({ length: CONCURRENCY }, () => person(a)));
  const rows: {
    show: Window;
    N: Window;
    threads: Window;
    S: Window;
    spread: Window;
    spreadThreads: Window;
  }[] = [];
  console.log(
    `\nPostgreSQL's own speed on the same database, ${CONCURRENCY} pgbench clients or callers, ${SECONDS} s windows`,
  );
  for (let i = 0; i < ROUNDS; i++) {
    const show = await callWindow(meter, () => a.threadOps.show(p.principal, { lines: LINES }));
    const N = pgbenchWindow(db.url, meter, '-N');
    const threads = await callWindow(meter, () => a.threadOps.threads(p.principal));
    const S = pgbenchWindow(db.url, meter, '-S');
    const spread = await callWindow(meter, (i) => a.threadOps.show(people[i]!.principal, { lines: LINES }));
    const spreadThreads = await callWindow(meter, (i) => a.threadOps.threads(people[i]!.principal));
    rows.push({ show, N, threads, S, spread, spreadThreads });
    console.log(
      `  round ${i + 1}: svc_show ${show.rate.toFixed(0)}/s, pgbench -N ${N.rate.toFixed(0)} tx/s, ${fmt(show.rate / N.rate)}; ` +
        `svc_threads ${threads.rate.toFixed(0)}/s, pgbench -S ${S.rate.toFixed(0)} tx/s, ${fmt(threads.rate / S.rate)}  (${loadAverage()})`,
    );
    console.log(
      `           spread over ${CONCURRENCY} threads: svc_show ${spread.rate.toFixed(0)}/s, ${fmt(spread.rate / N.rate)}; ` +
        `svc_threads ${spreadThreads.rate.toFixed(0)}/s, ${fmt(spreadThreads.rate / S.rate)}`,
    );
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  const cpu = (w: Window[], client: 'node' | 'children') => {
    const own = median(w.map((x) => (client === 'node' ? x.cpu.node : (x.cpu.children ?? Number.NaN))));
    const db = median(w.map((x) => x.cpu.cluster ?? Number.NaN));
    return { own, db, all: own + db };
  };
  const line = (label: string, calls: Window[], bench: Window[], name: string, goal = true) => {
    const r = median(calls.map((c, i) => c.rate / bench[i]!.rate));
    const c = cpu(calls, 'node');
    const b = cpu(bench, 'children');
    const judged = r >= 0.5 ? 'goal >= 0.50 met' : 'goal >= 0.50 NOT met';
    console.log(
      `  ${label.padEnd(44)} ${fmt(r).padStart(9)}  ${goal ? judged : '(not the goal)'} (median of ${ROUNDS})`,
    );
    console.log(
      `    CPU us per op: call ${c.own.toFixed(0)} node + ${c.db.toFixed(0)} postgres = ${c.all.toFixed(0)}; ` +
        `${name} ${b.own.toFixed(0)} client + ${b.db.toFixed(0)} postgres = ${b.all.toFixed(0)}; ratio ${fmt(b.all / c.all)}`,
    );
  };
  line(
    'svc_show on PostgreSQL / pgbench -N',
    rows.map((x) => x.show),
    rows.map((x) => x.N),
    'pgbench -N',
  );
  line(
    'svc_threads on PostgreSQL / pgbench -S',
    rows.map((x) => x.threads),
    rows.map((x) => x.S),
    'pgbench -S',
  );
  line(
    `svc_show over ${CONCURRENCY} threads / pgbench -N`,
    rows.map((x) => x.spread),
    rows.map((x) => x.N),
    'pgbench -N',
    false,
  );
  line(
    `svc_threads of ${CONCURRENCY} connections / pgbench -S`,
    rows.map((x) => x.spreadThreads),
    rows.map((x) => x.S),
    'pgbench -S',
    false,
  );
}

function loadAverage(): string {
  return `load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`;
}
