// Benchmark (issue 46 item 2, ADR 0254): /healthz latency while one account's agent runs 50 heavy tables
// calls at once (50 queries each over a 4,500-row table), on the real server over HTTP. Settings of the
// core's table work: `unpaced` (every call runs its lines back to back, as before ADR 0254), `paced-10ms`
// and `paced` (yielding every 10 ms / the default 5 ms, and the per-call cap, no budget) and `defaults`
// (paced, with the rows-scanned budget). `... table-work.bench.ts paced` runs one setting.
// Run: npx tsx apps/server/bench/table-work.bench.ts (after npm run build). Numbers vary with the machine's
// load: read them side by side from one run.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startServer } from '../dist/index.js';

const ROWS = 4_500;
const CALLS = 50;
const QUERIES = 50;
const HUGE = 1e12;
const SETTINGS = {
  unpaced: { sliceMs: HUGE, maxCallMs: HUGE, rowsPerMinute: HUGE },
  'paced-10ms': { rowsPerMinute: HUGE, sliceMs: 10 },
  paced: { rowsPerMinute: HUGE },
  defaults: {},
} as const;

const pct = (s: number[], p: number) =>
  [...s].sort((a, b) => a - b)[Math.min(s.length - 1, Math.floor(s.length * p))]!;
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function json(url: string, method: string, body?: unknown, token?: string) {
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

async function run(name: keyof typeof SETTINGS) {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-table-work-'));
  let offset = 0;
  // A real port up front, so the base URL names it.
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: p } = probe.address() as { port: number };
      probe.close(() => resolve(p));
    });
  });
  const server = await startServer(
    { port, host: '127.0.0.1', baseUrl: `http://127.0.0.1:${port}`, dataDir, logLevel: 'silent' } as never,
    undefined,
    { now: () => Date.now() + offset, tableWork: SETTINGS[name] },
  );
  try {
    const api = `${server.url}/functions/v1/svc-app`;
    const connect = `${server.url}/functions/v1/svc-connect`;
    const session = await json(`${api}/auth/signup`, 'POST', {
      email: 'bench@example.com',
      password: 'correct horse battery',
    });
    const token = session.access_token as string;
    const made = await json(`${api}/agents`, 'POST', { name: 'Coach' }, token);
    const paired = await json(connect, 'POST', {
      action: 'pair',
      code: (made.pairing as { code: string }).code,
      remote_ref: 'coach',
      kind: 'mcp',
      host_name: 'bench',
    });
    const connector = paired.connector_token as string;
    const agent = (made.agent as { id: string }).id;
    const tables = (lines: string) => json(`${connect}/tables`, 'POST', { agent, lines }, connector);
    await tables('table create Runs N:number S:text D:date');
    for (let i = 0; i < ROWS; i += 50) {
      if (i > 0 && i % 2_500 === 0) offset += 60_000; // the agent's 60 calls a minute
      await tables(
        Array.from(
          { length: 50 },
          (_, j) =>
            `put Runs N=${i + j} S=s${(i + j) % 37} D=2026-11-${String(1 + ((i + j) % 28)).padStart(2, '0')}`,
        ).join('\n'),
      );
    }
    offset += 120_000;
    const health = async () => {
      const t = performance.now();
      const res = await fetch(`${server.url}/healthz`);
      await res.arrayBuffer();
      return performance.now() - t;
    };
    const idle: number[] = [];
    for (let i = 0; i < 100; i++) idle.push(await health());

    const heavy = Array.from({ length: QUERIES }, (_, i) =>
      i % 2 === 0
        ? 'query Runs group=S sum=N avg=N +count sort=-Count limit=5'
        : 'query Runs where=N>100 sort=-N|S limit=5',
    ).join('\n');
    const started = performance.now();
    let done = false;
    const refused: Record<string, number> = {};
    const calls = Promise.all(
      Array.from({ length: CALLS }, async () => {
        const answer = (await tables(heavy)) as { results?: { error?: string }[] };
        for (const r of answer.results ?? []) {
          if (!r.error) continue;
          const kind = /rows for this minute/.test(r.error)
            ? 'budget'
            : /per call/.test(r.error)
              ? 'call cap'
              : 'other';
          refused[kind] = (refused[kind] ?? 0) + 1;
        }
      }),
    ).then(() => {
      done = true;
    });
    const busy: number[] = [];
    while (!done) busy.push(await health());
    await calls;
    const wall = performance.now() - started;
    console.log(
      `${name.padEnd(10)} /healthz idle median ${ms(pct(idle, 0.5))} | under load median ${ms(pct(busy, 0.5))}, p95 ${ms(pct(busy, 0.95))}, max ${ms(Math.max(...busy))} (${busy.length} probes) | ${CALLS} calls in ${ms(wall)} | refused queries: ${JSON.stringify(refused)}`,
    );
  } finally {
    await server.close(500);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const only = process.argv[2] as keyof typeof SETTINGS | undefined;
for (const name of only ? [only] : (Object.keys(SETTINGS) as (keyof typeof SETTINGS)[])) await run(name);
