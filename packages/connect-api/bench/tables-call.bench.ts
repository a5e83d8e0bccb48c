// Benchmark: the HTTP tables call against the raw engine (runLines on the same SQLite store) in the same run.
import { Agent, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runLines } from '@screen-service/tables-engine';
import { createTestCore, seedConnection, seedUser } from '@screen-service/test-kit';
import express from 'express';
import { createTablesRouter } from '../src/tables-router.js';

const ROWS = 5000;
const ROUNDS = 9;
const PER_ROUND = 20;
const core = createTestCore({
  clockMode: 'running',
  hostMessageRate: { burst: 1_000_000_000, perMinute: 60_000_000_000 },
});
const app = express();
app.use('/tables', createTablesRouter({ tables: core.tables, auth: core.anyConnectionAuth }));
const server: Server = app.listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tables`;
const user = await seedUser(core.store);
const { token, agents } = await seedConnection(core.store, user.id, ['coach']);
const agent = agents[0]!;
let calls = 0;
const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });

async function http(lines: string) {
  // Stay under 60 calls a minute: the benchmark measures the call, not the limiter's refusals.
  if (++calls % 50 === 0) core.advance(60_000);
  const body = JSON.stringify({ lines });
  // node:http with a keep-alive agent: the client's own cost stays small next to the service's.
  const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent: keepAlive,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
  if (status !== 200) throw new Error(`tables call ${status}: ${text}`);
  return JSON.parse(text) as { failed: unknown[] };
}
function engine(lines: string) {
  return runLines(core.store.relay.tables, {
    owner: user.id,
    agent: agent.id,
    now: core.clock(),
    timeZone: 'UTC',
    lines,
  });
}

// 5,000 rows of two years of days, written through the call in 100 calls of 50 lines.
await http(
  'table create W Date:date Weight:number:kg Km:number Note:text\ntable create Log N:number Note:text',
);
const NOTES = ['easy run', 'Long RUN', 'rest', 'swim', 'bike ride'];
for (let c = 0; c < ROWS / 50; c++) {
  const lines = Array.from({ length: 50 }, (_, j) => {
    const i = c * 50 + j;
    const day = new Date(Date.UTC(2024, 5, 1) + Math.floor(i / 7) * 86_400_000).toISOString().slice(0, 10);
    return `put W Date=${day} Weight=${60 + ((i * 37) % 400) / 10} Km=${(i * 13) % 21} Note="${NOTES[i % 5]}"`;
  });
  const answer = await http(lines.join('\n'));
  if (answer.failed.length > 0) throw new Error(JSON.stringify(answer.failed[0]));
}

let n = 0;
const write = () => Array.from({ length: 10 }, (_, i) => `put Log k${i} N=${n++} Note="row ${i}"`).join('\n');
const grouped = 'query W where=Km>3 group=Date:week sum=Km avg=Weight +count limit=500';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Median ms per call of the HTTP call and of the engine, in alternating rounds (shared machine). */
async function timePair(lines: () => string): Promise<[number, number]> {
  for (let i = 0; i < 5; i++) {
    await http(lines());
    await engine(lines());
  }
  const th: number[] = [];
  const te: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    let start = performance.now();
    for (let i = 0; i < PER_ROUND; i++) await http(lines());
    th.push((performance.now() - start) / PER_ROUND);
    start = performance.now();
    for (let i = 0; i < PER_ROUND; i++) await engine(lines());
    te.push((performance.now() - start) / PER_ROUND);
  }
  return [median(th), median(te)];
}

const rows: string[][] = [];
for (const [label, lines] of [
  ['10-line write (keyed puts)', write],
  ['grouped query over 5,000 rows', () => grouped],
] as const) {
  const [h, e] = await timePair(lines);
  rows.push([
    label,
    `${(1000 / h).toFixed(0)} calls/s (${h.toFixed(2)} ms)`,
    `${(1000 / e).toFixed(0)} calls/s (${e.toFixed(2)} ms)`,
    `${(h / e).toFixed(2)}x`,
  ]);
}
console.log('| call | HTTP tables call | engine (runLines, same store) | HTTP / engine |');
console.log('| --- | --- | --- | --- |');
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
const ratio = Number(rows[1]![3]!.replace('x', ''));
console.log(
  `goal: the grouped query over HTTP at most 2x the engine's own time: ${ratio <= 2 ? 'met' : 'NOT met'} (${ratio}x)`,
);
keepAlive.destroy();
await new Promise((r) => server.close(r));
core.close();
