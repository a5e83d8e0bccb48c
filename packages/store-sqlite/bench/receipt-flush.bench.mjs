// The cost of an answer's receipt in the group commit (not a test; ADR 0294): `threads.appendSigned` with the
// service's real signer, PER_FLUSH answers of distinct threads asked in one turn, format 1 (one signature each)
// against format 2 (one per flush), alternating, CPU µs per answer. Run: npx node bench/receipt-flush.bench.mjs
// (after build).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createReceipts } from '@screen-service/receipts';
import { createSqliteStore, openServiceDatabase } from '../dist/index.js';

const PER_FLUSH = Number(process.env.PER_FLUSH ?? 10);
const FLUSHES = Number(process.env.FLUSHES ?? 400);
const ROUNDS = Number(process.env.ROUNDS ?? 7);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-receipt-bench-'));
const db = openServiceDatabase(dir);
const store = createSqliteStore(db);
const receipts = createReceipts({
  store,
  secret: new TextEncoder().encode('a-service-secret-of-enough-bytes!'),
  issuer: 'https://svc.bench',
});

db.prepare("INSERT INTO users (id, email, password_hash, created_at) VALUES ('u', 'u@x', 'x', 0)").run();
const agent = db.prepare(
  "INSERT INTO agents (id, user_id, name, handle, color, kind, created_at, updated_at) VALUES (?, 'u', ?, ?, 'mint', 'mcp', 0, 0)",
);
for (let a = 0; a < PER_FLUSH; a++) agent.run(`a${a}`, `a${a}`, `a${a}`);

const signer = await receipts.signer();
const screen = { id: 'scr_1', digest: 'x'.repeat(43) };
let n = 0;
let version = 1;

/** One round: FLUSHES flushes of PER_FLUSH answers; CPU µs per answer. */
async function round(format) {
  const cpu0 = process.cpuUsage();
  for (let f = 0; f < FLUSHES; f++) {
    const writes = [];
    for (let a = 0; a < PER_FLUSH; a++) {
      const built = signer.builder(screen, { session: 's', device: 'd' });
      // Format 1: the builder without its leaf, as stores without batches (and the release before) use it.
      const receiptOf = format === 1 ? (m, last) => built(m, last) : built;
      const m = {
        id: `m${++n}`,
        userId: 'u',
        agentId: `a${a}`,
        sender: 'person',
        kind: 'tap',
        body: 'Yes',
        meta: { event: { id: 'pick', value: 'Yes' } },
        screenId: 'scr_1',
        createdAt: Date.now(),
      };
      writes.push(store.threads.appendSigned(m, ++version, receiptOf));
    }
    await Promise.all(writes);
  }
  const used = process.cpuUsage(cpu0);
  return (used.user + used.system) / (FLUSHES * PER_FLUSH);
}

await round(1);
await round(2);
const out = { 1: [], 2: [] };
for (let r = 0; r < ROUNDS; r++) {
  for (const format of r % 2 === 0 ? [1, 2] : [2, 1]) out[format].push(await round(format));
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `appendSigned, ${PER_FLUSH} answers per flush, real Ed25519 key, CPU µs per answer (median of ${ROUNDS}): format 1 ${median(out[1]).toFixed(1)} [${out[1].map((x) => x.toFixed(1)).join(', ')}], format 2 ${median(out[2]).toFixed(1)} [${out[2].map((x) => x.toFixed(1)).join(', ')}]`,
);
db.close();
fs.rmSync(dir, { recursive: true, force: true });
