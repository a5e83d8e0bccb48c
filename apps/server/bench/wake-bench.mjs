// Benchmark: how soon a waiting `answers` call wakes after the phone's tap, against the tap request's own
// round trip measured in the same run (the baseline: the wake cannot come before the tap is stored).
// The tests only check that a waiting call wakes on the tap and not at its timeout; the milliseconds live here.
// Run: npm run bench -w apps/server (builds first). Never part of `npm test`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const { loadConfig, startServer } = await import('../dist/index.js');
const pino = (await import('pino')).default;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-wake-bench-'));
const running = await startServer(
  // The per-thread host message limit (ADR 0248) is lifted: the bench measures wakes, not refusals.
  loadConfig(
    {
      PORT: '0',
      HOST: '127.0.0.1',
      SVC_DATA_DIR: dataDir,
      SVC_HOST_MESSAGE_RATE_BURST: '100000000',
      SVC_HOST_MESSAGE_RATE_PER_MINUTE: '100000000',
    },
    '/',
  ),
  pino({ level: 'silent' }),
);
const base = `http://127.0.0.1:${running.port}/functions/v1/svc-app`;
const post = async (p, body, token) => {
  const res = await fetch(base + p, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return res.json();
};
const session = await post('/auth/signup', { email: 'wake@example.com', password: 'bench password' });
const created = await post('/agents', { name: 'Wake' }, session.access_token);
const paired = await running.services.pairing.pair({
  code: created.pairing.code,
  remote_ref: 'wake',
  kind: 'mcp',
  host_name: 'bench',
  clientAddr: 'bench',
});
const principal = await running.services.connectionAuth.verify(paired.connector_token);
const user = await running.services.store.users.findByEmail('wake@example.com');

const wakes = [];
const taps = [];
for (let i = 0; i < ROUNDS + 20; i++) {
  const { screen_id } = await running.services.threadOps.show(principal, { lines: 'choose@a "Q" x|y' });
  let wokeAt = 0;
  const waiting = running.services.threadOps.answers(principal, { screen_id, wait: 10 }).then((r) => {
    wokeAt = performance.now();
    return r;
  });
  while (running.services.notifier.listenerCount(user.id) === 0) await new Promise((r) => setImmediate(r));
  const sent = performance.now();
  await post(
    `/agents/${created.agent.id}/taps`,
    { screen_id, event: { id: 'a', value: 'y' } },
    session.access_token,
  );
  const answered = performance.now();
  const r = await waiting;
  if (r.answers.length !== 1) throw new Error(`round ${i}: expected one answer, got ${r.answers.length}`);
  if (i >= 20) {
    // The first 20 rounds warm the JIT and the database.
    wakes.push(wokeAt - sent);
    taps.push(answered - sent);
  }
}
await running.close(200);
fs.rmSync(dataDir, { recursive: true, force: true });

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const row = (name, xs) =>
  `${name.padEnd(28)} p50 ${pct(xs, 0.5).toFixed(2).padStart(7)} ms   p99 ${pct(xs, 0.99).toFixed(2).padStart(7)} ms`;
console.log(`wake after tap, ${ROUNDS} rounds (from sending the tap)`);
console.log(row('baseline: tap round trip', taps));
console.log(row('answers call wakes', wakes));
console.log(
  `ratio wake/baseline: p50 ${(pct(wakes, 0.5) / pct(taps, 0.5)).toFixed(2)}x, p99 ${(pct(wakes, 0.99) / pct(taps, 0.99)).toFixed(2)}x`,
);
