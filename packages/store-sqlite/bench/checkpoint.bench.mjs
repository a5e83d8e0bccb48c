// Benchmark: commit latency on the service database with SQLite's automatic checkpoint (inside the commit
// that crosses 1,000 pages) against the same commits with startWalCheckpointer (checkpoints in a worker).
// Each commit is one small insert, as a screen or a tap writes; the event loop turns between commits so a
// stall shows as it would to every other request. Run: npm run bench -w @screen-service/store-sqlite.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openServiceDatabase, startWalCheckpointer } from '../dist/index.js';

const COMMITS = Number(process.env.BENCH_COMMITS ?? 30_000);
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

async function run(withWorker) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-ckpt-'));
  const t = {
    db: openServiceDatabase(dir),
    close() {
      t.db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  t.db.exec('CREATE TABLE bench (id INTEGER PRIMARY KEY, v TEXT NOT NULL)');
  const insert = t.db.prepare('INSERT INTO bench (v) VALUES (?)');
  const cp = withWorker ? startWalCheckpointer(t.db, { intervalMs: 250 }) : null;
  const times = [];
  const start = performance.now();
  for (let i = 0; i < COMMITS; i++) {
    const t0 = performance.now();
    insert.run('x'.repeat(400));
    times.push(performance.now() - t0);
    if (i % 100 === 0) await new Promise((r) => setImmediate(r));
  }
  const secs = (performance.now() - start) / 1000;
  await cp?.stop();
  t.close();
  return { p50: pct(times, 50), p99: pct(times, 99), p999: pct(times, 99.9), max: Math.max(...times), secs };
}

const f = (x) => `${x.toFixed(3)} ms`;
const auto = await run(false);
const worker = await run(true);
console.log(`${COMMITS} commits of one small row (WAL, synchronous=NORMAL)`);
for (const [name, r] of [
  ['checkpoint in the commit (SQLite default)', auto],
  ['checkpoint in a worker (startWalCheckpointer)', worker],
]) {
  console.log(
    `  ${name.padEnd(46)} p50 ${f(r.p50)}  p99 ${f(r.p99)}  p99.9 ${f(r.p999)}  max ${f(r.max)}  ${(COMMITS / r.secs).toFixed(0)} commits/s`,
  );
}
console.log(`  ratio worst commit default/worker: ${(auto.max / worker.max).toFixed(1)}x`);
