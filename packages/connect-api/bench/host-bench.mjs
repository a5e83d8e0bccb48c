// Host API benchmark (not a test): heartbeats/s from 1,000 connectors against an echo route in the same
// server, person → host delivery latency, and the server memory of 1,000 open host streams.
// Run: npm run bench -w @screen-service/connect-api (builds first: npx nx run @screen-service/connect-api:build).
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createTestCore, seedConnection, seedUser } from '@screen-service/test-kit';
import express from 'express';
import { createConnectRouter } from '../dist/index.js';

if (process.argv[2] === 'streams') {
  // Child: opens N streams to the given URL and reports when all are open; holds them until killed.
  const [, , , url, tokensJson] = process.argv;
  const http = await import('node:http');
  const tokens = JSON.parse(tokensJson);
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  let open = 0;
  for (const token of tokens) {
    const req = http.get(
      `${url}/messages`,
      { agent, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        res.once('data', () => {
          open++;
          if (open === tokens.length) process.send?.('open');
        });
      },
    );
    req.on('error', (e) => process.send?.(`error ${e.message}`));
  }
  await new Promise(() => {});
}

const CONNECTORS = 1000;
const REQUESTS = 6000;
const CONCURRENCY = 32;

const core = createTestCore({
  clockMode: 'running',
  hostMessageRate: { burst: 1_000_000_000, perMinute: 60_000_000_000 },
});
const app = express();
app.post('/echo', express.json(), (req, res) => res.json(req.body));
app.use(
  '/c',
  createConnectRouter({
    pairing: core.pairing,
    hosts: core.hosts,
    hostAuth: core.hostAuth,
    transport: core.hostTransport,
  }),
);
const server = app.listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
const base = `http://127.0.0.1:${server.address().port}`;

const hosts = [];
for (let i = 0; i < CONNECTORS; i++) {
  const user = await seedUser(core.store, { email: `b${i}@example.com` });
  const c = await seedConnection(core.store, user.id, [`agent-${i}`], 'hostfw');
  hosts.push({ userId: user.id, token: c.token, agentId: c.agents[0].id });
}

// Plain node:http with keep-alive: undici's fetch in the same process would be the bottleneck measured.
const httpMod = await import('node:http');
const keepAlive = new httpMod.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
function post(path, token, body) {
  return new Promise((resolve, reject) => {
    const req = httpMod.request(
      `${base}${path}`,
      {
        method: 'POST',
        agent: keepAlive,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          authorization: `Bearer ${token}`,
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({
            ok: res.statusCode === 200,
            status: res.statusCode,
            text: async () => Buffer.concat(chunks).toString(),
            arrayBuffer: async () => Buffer.concat(chunks),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function load(makeRequest) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < REQUESTS) {
        const i = next++;
        const res = await makeRequest(i);
        if (!res.ok) throw new Error(`status ${res.status}: ${await res.text()}`);
        await res.arrayBuffer();
      }
    }),
  );
  return REQUESTS / ((performance.now() - started) / 1000);
}
const echo = (i) => post('/echo', hosts[i % CONNECTORS].token, '{"action":"heartbeat"}');
const heartbeat = (i) => post('/c', hosts[i % CONNECTORS].token, '{"action":"heartbeat"}');
await load(echo); // warm up both paths
await load(heartbeat);
const echoRate = await load(echo);
const hbRate = await load(heartbeat);
console.log(
  `heartbeats: ${hbRate.toFixed(0)}/s from ${CONNECTORS} connectors; echo baseline ${echoRate.toFixed(0)}/s; ratio ${(hbRate / echoRate).toFixed(2)}`,
);

// Delivery latency: the person says something; time until the host's stream has it.
{
  const h = hosts[0];
  const res = await fetch(`${base}/c/messages`, { headers: { authorization: `Bearer ${h.token}` } });
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const waitFor = async (id) => {
    for (;;) {
      const idx = buffer.indexOf(id);
      if (idx >= 0) {
        buffer = buffer.slice(idx + id.length);
        return;
      }
      const { value } = await reader.read();
      buffer += decoder.decode(value, { stream: true });
    }
  };
  const samples = [];
  const echoSamples = [];
  for (let i = 0; i < 600; i++) {
    const t0 = performance.now();
    const m = await core.threads.say(h.userId, h.agentId, { text: `m${i}` });
    await waitFor(m.id);
    samples.push(performance.now() - t0);
    // Baseline: one loopback HTTP round trip carrying the same bytes.
    const e0 = performance.now();
    await (await echo(0)).arrayBuffer();
    echoSamples.push(performance.now() - e0);
  }
  const pct = (xs, p) =>
    [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
  const warm = samples.slice(100);
  const warmEcho = echoSamples.slice(100);
  console.log(
    `delivery person → host: p50 ${pct(warm, 50).toFixed(2)} ms, p99 ${pct(warm, 99).toFixed(2)} ms (goal p99 < 20 ms); ` +
      `loopback echo round trip p50 ${pct(warmEcho, 50).toFixed(2)} ms, p99 ${pct(warmEcho, 99).toFixed(2)} ms; ` +
      `ratio p50 ${(pct(warm, 50) / pct(warmEcho, 50)).toFixed(2)}`,
  );
  await reader.cancel();
}

// Memory: 1,000 open host streams, held by a child process so only the server's side is measured here.
{
  const gc = globalThis.gc ?? (() => {});
  const settle = async () => {
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((r) => setTimeout(r, 100));
    }
    const m = process.memoryUsage();
    return { heap: m.heapUsed + m.external + m.arrayBuffers, rss: m.rss };
  };
  const before = await settle();
  const child = fork(
    fileURLToPath(import.meta.url),
    ['streams', `${base}/c`, JSON.stringify(hosts.map((h) => h.token))],
    {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const msg = await new Promise((r) => child.once('message', r));
  if (msg !== 'open') throw new Error(String(msg));
  const after = await settle();
  const listeners = hosts.reduce((n, h) => n + core.notifier.listenerCount(h.userId), 0);
  console.log(
    `streams: ${CONNECTORS} open (${listeners} live subscriptions); server heap+buffers ${((after.heap - before.heap) / CONNECTORS / 1024).toFixed(1)} KB per stream, ` +
      `rss ${((after.rss - before.rss) / CONNECTORS / 1024).toFixed(1)} KB per stream (goal < 50 KB)` +
      (globalThis.gc ? '' : ' [run with --expose-gc for steadier numbers]'),
  );
  child.kill('SIGKILL');
}

server.closeAllConnections();
server.close();
core.close();
process.exit(0);
