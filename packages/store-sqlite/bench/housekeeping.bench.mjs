// Housekeeping cost on a large thread table (not a test): each pass's deletes against a full-table scan
// measured in the same run as the baseline. Run: npm run bench -w @screen-service/store-sqlite (after build).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { retentionJobs } from '@screen-service/core/housekeeping';
import { createSqliteStore, openServiceDatabase } from '../dist/index.js';

const ROWS = Number(process.env.ROWS ?? 200_000);
const THREADS = 200;
const DAY = 86_400_000;
const now = Date.UTC(2026, 5, 1);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-hk-bench-'));
const db = openServiceDatabase(dir);
const store = createSqliteStore(db);

db.prepare("INSERT INTO users (id, email, password_hash, created_at) VALUES ('u', 'u@x', 'x', 0)").run();
const agent = db.prepare(
  "INSERT INTO agents (id, user_id, name, handle, color, kind, created_at, updated_at) VALUES (?, 'u', ?, ?, 'mint', 'mcp', 0, 0)",
);
for (let a = 0; a < THREADS; a++) agent.run(`a${a}`, `a${a}`, `a${a}`);
const msg = db.prepare(
  "INSERT INTO messages (id, user_id, agent_id, sender, kind, body, created_at) VALUES (?, 'u', ?, 'agent', 'text', 'hello there', ?)",
);
db.transaction(() => {
  // Spread over 100 days: the oldest tenth is past the 90-day rule.
  for (let i = 0; i < ROWS; i++)
    msg.run(`m${i}`, `a${i % THREADS}`, now - 100 * DAY + Math.floor((i / ROWS) * 100 * DAY));
})();

const time = async (fn, runs = 5) => {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return samples.sort((a, b) => a - b)[Math.floor(runs / 2)];
};

const scan = db.prepare("SELECT COUNT(*) FROM messages WHERE body LIKE '%zzz%'");
const baseline = await time(() => scan.get());
const jobs = Object.fromEntries(retentionJobs({ store, messagesPerThread: 800 }).map((j) => [j.name, j]));
const first = await time(() => jobs['relay-retention'].run(now), 1);
const idle = await time(() => jobs['relay-retention'].run(now));
const trimFirst = await time(() => jobs['thread-limit'].run(now), 1);
const trimIdle = await time(() => jobs['thread-limit'].run(now));
const others = await time(async () => {
  for (const n of ['pairing-codes', 'sign-ins', 'unattached-photos']) await jobs[n].run(now);
});

const row = (name, ms) =>
  console.log(`${name.padEnd(44)} ${ms.toFixed(2).padStart(9)} ms  ${(ms / baseline).toFixed(2)}x baseline`);
console.log(`${ROWS} thread rows in ${THREADS} threads; baseline = one full scan of messages`);
row('baseline: full scan', baseline);
row('relay-retention, first pass (deletes 10%)', first);
row('relay-retention, idle pass', idle);
row('thread-limit 800/thread, first pass', trimFirst);
row('thread-limit, idle pass', trimIdle);
row('pairing-codes + sign-ins + unattached-photos', others);
db.close();
fs.rmSync(dir, { recursive: true, force: true });
