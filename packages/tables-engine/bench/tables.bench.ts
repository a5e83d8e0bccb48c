// Benchmark: a 5,000-row table on both stores against hand-written SQL through better-sqlite3 in the same run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createMemoryStore, type OpLine, runOps, type TableStore } from '../src/index.js';
import { createSqliteStore } from '../src/sqlite.js';
import { put, query, sort, table } from '../test/ops.js';

const ROWS = 5000;
const dir = mkdtempSync(join(tmpdir(), 'tables-bench-'));
const call = { owner: 'u', agent: 'a', now: new Date('2026-06-01T12:00:00Z'), timeZone: 'UTC' };

interface Row {
  Date: string;
  Weight: number;
  Km: number;
  Note: string;
  Done: boolean;
}

// Deterministic data: two years of days, a few notes.
const NOTES = ['easy run', 'Long RUN', 'rest', 'swim', 'bike ride'];
const data: Row[] = Array.from({ length: ROWS }, (_, i) => ({
  Date: new Date(Date.UTC(2024, 5, 1) + Math.floor(i / 7) * 86_400_000).toISOString().slice(0, 10),
  Weight: 60 + ((i * 37) % 400) / 10,
  Km: (i * 13) % 21,
  Note: NOTES[i % NOTES.length]!,
  Done: i % 3 === 0,
}));
const puts = data.map((r) => put('W', undefined, { ...r }));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Median ms per call of `a` and of `b`, measured in alternating rounds so that load from other work on
 * the (shared) machine hits both alike.
 */
async function timePair(repeat: number, a: () => unknown, b: () => unknown): Promise<[number, number]> {
  for (let i = 0; i < 5; i++) {
    await a();
    await b();
  }
  const per = Math.max(1, Math.round(repeat / 9));
  const ta: number[] = [];
  const tb: number[] = [];
  for (let r = 0; r < 9; r++) {
    for (const [fn, out] of [
      [a, ta],
      [b, tb],
    ] as const) {
      const start = performance.now();
      for (let i = 0; i < per; i++) await fn();
      out.push((performance.now() - start) / per);
    }
  }
  return [median(ta), median(tb)];
}

async function run(store: TableStore, ops: OpLine[]) {
  const answer = await runOps(store, { ...call, ops });
  if (answer.failed.length > 0) throw new Error(answer.failed[0]!.error);
  const error = answer.results.find((r) => r.error)?.error;
  if (error) throw new Error(error);
  return answer;
}

async function fill(
  store: TableStore,
): Promise<{ oneCall: number; handOneCall: number; bulkRowsPerSec: number }> {
  await run(store, [table('W', 'Date:date', 'Weight:number:kg', 'Km:number', 'Note:text', 'Done:bool')]);
  const start = performance.now();
  for (let i = 0; i < ROWS; i += 50) await run(store, puts.slice(i, i + 50));
  const bulk = performance.now() - start;
  await run(store, [
    table('Scratch', 'Date:date', 'Weight:number:kg', 'Km:number', 'Note:text', 'Done:bool'),
  ]);
  const scratch = puts.slice(0, 50).map((p) => ({ ...p, op: { ...p.op, table: 'Scratch' } })) as OpLine[];
  const [oneCall, handOneCall] = await timePair(
    36,
    () => run(store, scratch),
    () => handInsert(data.slice(0, 50)),
  );
  return { oneCall, handOneCall, bulkRowsPerSec: (ROWS / bulk) * 1000 };
}

const grouped = query('W', {
  where: [['Date', '>=', '2025-01-01']],
  group: { col: 'Date', by: 'week' },
  sum: ['Km'],
  avg: ['Weight'],
  count: true,
  limit: 500,
});
const filtered = query('W', {
  where: [
    ['Note', '~', 'run'],
    ['Weight', '>', 70],
  ],
  sort: sort('-Weight', 'Date'),
  limit: 50,
});

// The same two queries written by hand against a plain table with real columns.
const hand = new Database(join(dir, 'hand.sqlite'));
hand.pragma('journal_mode = WAL');
hand.pragma('synchronous = NORMAL');
hand.exec(
  'CREATE TABLE w (seq INTEGER PRIMARY KEY, date TEXT, weight REAL, km REAL, note TEXT, done INTEGER)',
);
const insert = hand.prepare('INSERT INTO w (date, weight, km, note, done) VALUES (?, ?, ?, ?, ?)');
const handInsert = hand.transaction((rows: Row[]) => {
  for (const r of rows) insert.run(r.Date, r.Weight, r.Km, r.Note, r.Done ? 1 : 0);
});
const handStart = performance.now();
for (let i = 0; i < ROWS; i += 50) handInsert(data.slice(i, i + 50));
const handBulk = (ROWS / (performance.now() - handStart)) * 1000;
const handGrouped = hand.prepare(
  `SELECT date(date, 'weekday 0', '-6 days') AS week, sum(km), avg(weight), count(*) FROM w
   WHERE date >= '2025-01-01' GROUP BY week ORDER BY week`,
);
const handFiltered = hand.prepare(
  `SELECT date, weight, km, note, done FROM w WHERE instr(lower(note), 'run') > 0 AND weight > 70
   ORDER BY weight DESC, date LIMIT 50`,
);
const handCount = hand.prepare(`SELECT count(*) FROM w WHERE instr(lower(note), 'run') > 0 AND weight > 70`);
const handQ1 = () => handGrouped.raw().all();
const handQ2 = () => {
  handFiltered.raw().all();
  handCount.raw().get();
};

const stores: [string, TableStore][] = [
  ['memory', createMemoryStore()],
  ['sqlite', (() => createSqliteStore(join(dir, 'store.sqlite')))()],
];
const fmt = (n: number) => n.toFixed(3).padStart(8);
console.log(`tables-engine bench: ${ROWS}-row table, Node ${process.version}`);
console.log(
  `hand SQL (better-sqlite3, real columns, 50 inserts per transaction): bulk ${handBulk.toFixed(0)} rows/s`,
);
for (const [name, store] of stores) {
  const { oneCall, handOneCall, bulkRowsPerSec } = await fill(store);
  // Each store's numbers sit next to a fresh hand-SQL measurement, so machine noise hits both alike.
  const [q1, h1] = await timePair(270, () => run(store, [grouped]), handQ1);
  const [q2, h2] = await timePair(270, () => run(store, [filtered]), handQ2);
  const check = (await run(store, [grouped, filtered])).results.map((r) => `${r.rows.length}/${r.count}`);
  console.log(`\n${name} store (rows/count: ${check.join(', ')})`);
  console.log(
    `  put: one call of 50 lines ${fmt(oneCall)} ms (hand SQL ${fmt(handOneCall)} ms; ${(oneCall / handOneCall).toFixed(1)}x); bulk ${bulkRowsPerSec.toFixed(0)} rows/s`,
  );
  console.log(
    `  group=Date:week sum avg +count ${fmt(q1)} ms/query; hand SQL ${fmt(h1)} ms; ratio ${(q1 / h1).toFixed(2)}x`,
  );
  console.log(
    `  sorted filtered query          ${fmt(q2)} ms/query; hand SQL ${fmt(h2)} ms; ratio ${(q2 / h2).toFixed(2)}x`,
  );
  if (name === 'memory') console.log(`  goal < 10 ms/query: ${q1 < 10 && q2 < 10 ? 'met' : 'NOT met'}`);
  else console.log(`  goal within 1.5x of hand SQL: ${q1 / h1 <= 1.5 && q2 / h2 <= 1.5 ? 'met' : 'NOT met'}`);
}
hand.close();
rmSync(dir, { recursive: true, force: true });
