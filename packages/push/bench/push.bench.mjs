// Benchmark: (1) pushes per second the sender drains from the outbox to a push service on 127.0.0.1, against
// plain unencrypted POSTs to the same service in the same run; (2) svc_show → push arriving at the push
// service under 50 concurrent showers (goal p99 < 100 ms), against svc_show's own latency with no device.
// Run: npm run bench -w @screen-service/push (builds first). Never part of `npm test`.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { startWalCheckpointer } from '@screen-service/service-core/sqlite';
import { createTestCore, seedAgent, seedConnector, seedUser } from '@screen-service/service-core/testing';
import { createWebPushTransport, generateVapidKeys } from '../dist/index.js';

const THREADS = Number(process.env.BENCH_THREADS ?? 100);
const DEVICES = Number(process.env.BENCH_DEVICES ?? 20);
const SHOWERS = 50;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
// The paced run: each shower waits about this long between screens (an agent waiting on its person).
const PACE_MS = Number(process.env.BENCH_PACE_MS ?? 1000);
const vapid = { ...generateVapidKeys(), subject: 'mailto:bench@example.com' };
const transport = createWebPushTransport({ vapid });
// The push service runs in a worker thread (see push-service-worker.mjs).
const worker = new Worker(new URL('./push-service-worker.mjs', import.meta.url));
const arrivals = [];
let rejected = 0;
const waiting = new Map();
let asks = 0;
const ready = new Promise((resolve) =>
  worker.on('message', (m) => {
    if (m.type === 'ready') resolve(m.url);
    if (m.type === 'arrivals') {
      arrivals.push(...m.arrivals);
      rejected = m.rejected;
    }
    if (m.type === 'subscribers') waiting.get(m.id)(m.subs);
  }),
);
const ps = {
  url: await ready,
  subscribers: (n) =>
    new Promise((resolve) => {
      const id = ++asks;
      waiting.set(id, resolve);
      worker.postMessage({ type: 'subscribers', id, n });
    }),
};
const absNow = () => performance.timeOrigin + performance.now();
const until = async (cond, ms = 30_000) => {
  const end = performance.now() + ms;
  while (!cond() && performance.now() < end) await new Promise((r) => setTimeout(r, 5));
};

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x) => `${x.toFixed(2)} ms`;

async function setup(devices, threads) {
  return setupOn(null, devices, threads);
}

async function setupOn(shared, devices, threads) {
  const core = shared ?? createTestCore({ clockMode: 'running', vapidPublicKey: vapid.publicKey });
  // As the server opens its database (apps/server open-database.ts): WAL without an fsync per commit.
  core.db.pragma('synchronous = NORMAL');
  // Checkpoints in a worker thread (startWalCheckpointer), as the server runs them; BENCH_CHECKPOINT=commit
  // leaves them in the commit that crosses SQLite's threshold, to compare.
  if (!shared && process.env.BENCH_CHECKPOINT !== 'commit') {
    const checkpoints = startWalCheckpointer(core.db, {
      intervalMs: Number(process.env.BENCH_CKPT_MS ?? 1000),
    });
    const close = core.close.bind(core);
    core.close = () => void checkpoints.stop().then(close);
  }
  const user = await seedUser(core.store);
  const { token, connector } = await seedConnector(core.store, user.id);
  const agents = [];
  for (let i = 0; i < threads; i++) {
    agents.push(await seedAgent(core.store, user.id, { handle: `a${i}`, connectorId: connector.id }));
  }
  for (const [i, s] of (await ps.subscribers(devices)).entries()) {
    await core.push.subscribe(user.id, { endpoint: s.endpoint, keys: s.keys, device: `d${i}` });
  }
  const principal = await core.connectionAuth.verify(`Bearer ${token}`);
  return { core, user, agents, principal };
}

// (1) Throughput: THREADS chat lines × DEVICES subscriptions, drained by the sender's passes.
{
  const { core, agents, principal } = await setup(DEVICES, THREADS);
  for (const a of agents)
    await core.threadOps.say(principal, { text: `hello from ${a.handle}`, agent: a.id });
  const total = THREADS * DEVICES;
  const sender = core.createPushSender(transport, { concurrency: 32, batchSize: 500 });
  const before = arrivals.length;
  const t0 = performance.now();
  while ((await core.store.push.nextDueAt()) !== null) await sender.tick();
  await until(() => arrivals.length - before >= total);
  const secs = (performance.now() - t0) / 1000;
  const sent = arrivals.length - before;
  if (sent !== total || rejected > 0) throw new Error(`sent ${sent} of ${total}; rejected ${rejected}`);

  // Baseline: the same number of plain POSTs (same size body, no encryption, no VAPID) at the same concurrency.
  // Same client as the transport (node:http, keep-alive); the service answers 404 at once for this path.
  const endpoint = new URL(`${ps.url}/push/none`);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const body = new Uint8Array(200);
  const postOnce = () =>
    new Promise((resolve, reject) => {
      const req = http.request(endpoint, { method: 'POST', agent }, (res) => res.resume().on('end', resolve));
      req.on('error', reject);
      req.end(body);
    });
  let next = 0;
  const b0 = performance.now();
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next++ < total) await postOnce();
    }),
  );
  agent.destroy();
  const baseSecs = (performance.now() - b0) / 1000;
  console.log(`throughput: ${total} pushes (${THREADS} threads x ${DEVICES} devices)`);
  console.log(`  sender (encrypt + VAPID + POST + settle): ${(total / secs).toFixed(0)} pushes/s`);
  console.log(`  baseline plain POST (node:http keep-alive): ${(total / baseSecs).toFixed(0)} requests/s`);
  console.log(`  ratio sender/baseline: ${(baseSecs / secs).toFixed(2)}`);
  core.close();
}

// (2) Latency: 50 showers at once, each show in a thread that has not buzzed yet (no collapse wait).
{
  // One person per shower (their own connection, thread per round, one device), all at once.
  const run = async (devices, paceMs = 0) => {
    const people = [];
    for (let i = 0; i < SHOWERS; i++)
      people.push(await setupOn(i === 0 ? null : people[0].core, devices, ROUNDS));
    const core = people[0].core;
    const sender = core.createPushSender(transport);
    sender.start();
    const before = arrivals.length;
    const started = new Map();
    const showLatency = [];
    await Promise.all(
      people.map(async ({ agents, principal }) => {
        for (let r = 0; r < ROUNDS; r++) {
          const t0 = absNow();
          const shown = await core.threadOps.show(principal, {
            lines: `choose@q "Round ${r}?" Yes|No`,
            agent: agents[r].id,
          });
          showLatency.push(absNow() - t0);
          started.set(shown.message_id, t0);
          if (paceMs > 0) await new Promise((x) => setTimeout(x, paceMs * (0.5 + Math.random())));
        }
      }),
    );
    if (devices > 0) await until(() => arrivals.length - before >= SHOWERS * ROUNDS);
    await sender.stop();
    core.close();
    return { showLatency, started, arrivals: arrivals.slice(before) };
  };
  const baseline = await run(0);
  const loaded = await run(1);
  const paced = await run(1, PACE_MS);
  const delaysOf = (r) =>
    r.arrivals.map((p) => p.at - (r.started.get(p.message_id) ?? Number.NaN)).filter((d) => !Number.isNaN(d));
  const pacedDelays = delaysOf(paced);
  const delays = loaded.arrivals
    .map((p) => p.at - (loaded.started.get(p.message_id) ?? Number.NaN))
    .filter((d) => !Number.isNaN(d));
  if (delays.length !== SHOWERS * ROUNDS)
    throw new Error(`got ${delays.length} of ${SHOWERS * ROUNDS} pushes`);
  console.log(
    `latency: ${SHOWERS} concurrent showers (one person each) x ${ROUNDS} screens back to back, one device each`,
  );
  console.log(
    `  svc_show -> push at the push service: p50 ${ms(pct(delays, 50))}, p99 ${ms(pct(delays, 99))}, max ${ms(Math.max(...delays))} (goal p99 < 100 ms: ${pct(delays, 99) < 100 ? 'met' : 'NOT met'})`,
  );
  console.log(
    `  baseline svc_show with no device:  p50 ${ms(pct(baseline.showLatency, 50))}, p99 ${ms(pct(baseline.showLatency, 99))}`,
  );
  console.log(
    `  svc_show with the buzz queued:     p50 ${ms(pct(loaded.showLatency, 50))}, p99 ${ms(pct(loaded.showLatency, 99))}`,
  );
  console.log(
    `  paced (each shower one screen per ~${PACE_MS} ms): svc_show -> push p50 ${ms(pct(pacedDelays, 50))}, p99 ${ms(pct(pacedDelays, 99))} (goal p99 < 100 ms: ${pct(pacedDelays, 99) < 100 ? 'met' : 'NOT met'}); svc_show itself p50 ${ms(pct(paced.showLatency, 50))}, p99 ${ms(pct(paced.showLatency, 99))}`,
  );
  console.log(
    `  ratio push p99 / baseline show p99: ${(pct(delays, 99) / pct(baseline.showLatency, 99)).toFixed(2)}`,
  );
}
worker.postMessage({ type: 'close' });
