// Reproduces the accept-queue wait behind the load run's stragglers (ADR 0215): a Node HTTP server kept busy
// by warm keep-alive connections, and connections opened late. Prints how long each late connection waited
// between the kernel completing its handshake and the server accepting it (and reading its request), next to
// the wait of requests sent on connections opened before the load. libuv accepts one connection per turn of
// the event loop (libuv/libuv#3696), so connections that arrive while the server is saturated drain at one per
// turn; `strace -f -e trace=accept4` on this script shows it.
//
//   node_modules/.bin/node apps/load-faults/scripts/accept-starvation.mjs [--busy 400] [--work 2] [--late 40] [--seconds 12]
//
// --busy: warm connections in a closed loop (one request at a time each); --work: ms of synchronous work per
// request in the server; --late: connections opened during the load (one every 250 ms); --seconds: length.
import { fork } from 'node:child_process';
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const now = () => performance.timeOrigin + performance.now(); // epoch ms, comparable across processes

function flag(name, value) {
  const i = process.argv.indexOf(`--${name}`);
  if (i === -1) return value;
  const n = Number(process.argv[i + 1]);
  if (!Number.isInteger(n) || n < 0) {
    console.error(`--${name} must be a whole number, not ${JSON.stringify(process.argv[i + 1])}`);
    process.exit(2);
  }
  return n;
}

if (process.argv[2] === '--serve') {
  // The server: every request burns `work` ms of CPU, like a handler doing validation and SQLite writes.
  const work = Number(process.argv[3]);
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const server = http.createServer((req, res) => {
    const requestAt = now();
    const end = performance.now() + work;
    while (performance.now() < end) {}
    res.setHeader('x-accepted-at', String(req.socket.acceptedAt));
    res.setHeader('x-request-at', String(requestAt));
    res.end('ok');
  });
  server.keepAliveTimeout = 65_000;
  server.on('connection', (socket) => {
    socket.acceptedAt = now();
  });
  server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () =>
    process.send({ port: server.address().port }),
  );
  process.on('message', (m) => {
    if (m === 'stats') process.send({ loopP99: loop.percentile(99) / 1e6, loopMax: loop.max / 1e6 });
  });
} else {
  const busy = flag('busy', 400);
  const work = flag('work', 2);
  const lateCount = flag('late', 40);
  const seconds = flag('seconds', 12);
  const child = fork(new URL(import.meta.url).pathname, ['--serve', String(work)]);
  const { port } = await new Promise((r) => child.once('message', r));
  const base = `http://127.0.0.1:${port}/`;

  /** One GET; resolves with the client's and the server's timestamps. */
  const get = (agent) =>
    new Promise((resolve, reject) => {
      const t = { start: now(), connected: Number.NaN };
      const req = http.get(base, { agent }, (res) => {
        res.resume();
        res.on('end', () =>
          resolve({
            ...t,
            accepted: Number(res.headers['x-accepted-at']),
            request: Number(res.headers['x-request-at']),
            done: now(),
          }),
        );
      });
      req.on('socket', (s) => {
        if (s.connecting) s.once('connect', () => (t.connected = now()));
      });
      req.on('error', reject);
    });

  // Warm pool: every connection opened and used once before the load starts.
  const pool = new http.Agent({ keepAlive: true, maxSockets: busy });
  await Promise.all(Array.from({ length: busy }, () => get(pool)));
  // One warm probe connection per late probe, so a warm probe never queues behind another in the agent.
  const probeAgent = new http.Agent({ keepAlive: true, maxSockets: lateCount });
  await Promise.all(Array.from({ length: lateCount }, () => get(probeAgent)));

  let running = true;
  let served = 0;
  const worker = async () => {
    while (running) {
      await get(pool);
      served++;
    }
  };
  const workers = Array.from({ length: busy }, worker);
  await new Promise((r) => setTimeout(r, 2000)); // let the server saturate

  const late = [];
  const warm = [];
  const probes = [];
  for (let i = 0; i < lateCount; i++) {
    probes.push(get(false).then((r) => late.push(r)));
    probes.push(get(probeAgent).then((r) => warm.push(r)));
    await new Promise((r) => setTimeout(r, 250));
  }
  const rest = Math.max(0, seconds * 1000 - 2000 - lateCount * 250);
  await new Promise((r) => setTimeout(r, rest));
  await Promise.all(probes);
  running = false;
  await Promise.all(workers);
  child.send('stats');
  const stats = await new Promise((r) => child.once('message', r));
  child.kill();

  const q = (list, p) => {
    const s = [...list].sort((a, b) => a - b);
    return s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
  };
  const row = (name, list) =>
    `| ${name.padEnd(46)} | ${q(list, 0.5).toFixed(0).padStart(7)} | ${q(list, 0.9).toFixed(0).padStart(7)} | ${Math.max(
      ...list,
    )
      .toFixed(0)
      .padStart(7)} |`;
  console.log(
    `busy warm connections ${busy}, ${work} ms of work per request, ${served} requests served, ` +
      `${lateCount} late connections; server event-loop delay p99 ${stats.loopP99.toFixed(0)} ms, max ${stats.loopMax.toFixed(0)} ms`,
  );
  console.log(`| ${'wait (ms)'.padEnd(46)} |     p50 |     p90 |     max |`);
  console.log(`| ${'-'.repeat(46)} | ------- | ------- | ------- |`);
  const rows = [
    ['late: handshake done → server accepts', late, (r) => r.accepted - r.connected],
    ['late: server accepts → reads the request', late, (r) => r.request - r.accepted],
    ['late: request sent → server reads it', late, (r) => r.request - r.start],
    ['late: whole call', late, (r) => r.done - r.start],
    ['warm: request sent → server reads it', warm, (r) => r.request - r.start],
    ['warm: whole call', warm, (r) => r.done - r.start],
  ];
  for (const [label, calls, wait] of rows) console.log(row(label, calls.map(wait)));
}
