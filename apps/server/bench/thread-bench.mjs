// Benchmark: requests/s and p99 latency for reading a thread page, a tap and a typed reply, against a plain
// Node HTTP JSON handler measured in the same run, in alternating slices (a load spike on a shared machine
// falls on both). Servers run in child processes; the load runs here. Goal (issue 21): each >= 30%.
// Each line also gives the server CPU per request of both (asked over IPC around every slice): on a shared
// machine CPU per request barely moves where throughput swings with every other process ("CPU ratio"). The
// service's main-thread CPU per request comes last: one event loop, it is what bounds the throughput.
// Run: npm run bench -w apps/server (builds first). Never part of `npm test`.
import { fork } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const DURATION_MS = Number(process.env.BENCH_MS ?? 3000);
const SLICES = Number(process.env.BENCH_SLICES ?? 5);
const WARMUP_MS = 500;
const CONCURRENCY = 16;
const here = fileURLToPath(import.meta.url);

if (process.argv[2] === 'child') await child(process.argv[3]);
else await main();

async function child(mode) {
  if (mode === 'plain') {
    // The baseline: parse the request, answer a JSON body of the same size as the service's page.
    const page = fs.readFileSync(process.argv[4], 'utf8');
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        const out =
          req.method === 'GET' ? page : JSON.stringify({ ok: true, echo: JSON.parse(body || '{}') });
        res.writeHead(req.method === 'GET' ? 200 : 201, { 'content-type': 'application/json' });
        res.end(out);
      });
    });
    server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
    answerCpu();
    return;
  }
  const { loadConfig, startServer } = await import('../dist/index.js');
  const pino = (await import('pino')).default;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-'));
  const running = await startServer(
    loadConfig({ PORT: '0', HOST: '127.0.0.1', SVC_DATA_DIR: dataDir }, '/'),
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
  const session = await post('/auth/signup', { email: 'bench@example.com', password: 'bench password' });
  const created = await post('/agents', { name: 'Bench' }, session.access_token);
  const paired = await running.services.pairing.pair({
    code: created.pairing.code,
    remote_ref: 'bench',
    kind: 'mcp',
    host_name: 'bench',
    clientAddr: 'bench',
  });
  const principal = await running.services.connectionAuth.verify(paired.connector_token);
  let screenId = '';
  for (let i = 0; i < 25; i++) {
    const s = await running.services.threadOps.show(principal, {
      lines: `choose@pick "Question ${i}?" Yes|No|Later\ntimer 5m Break`,
    });
    screenId = s.screen_id;
    await running.services.threadOps.say(principal, { text: `Message ${i}: a line of chat from the agent.` });
  }
  const page = await (
    await fetch(`${base}/agents/${created.agent.id}/messages?limit=50`, {
      headers: { authorization: `Bearer ${session.access_token}` },
    })
  ).text();
  const pageFile = path.join(dataDir, 'page.json');
  fs.writeFileSync(pageFile, page);
  process.send({
    port: running.port,
    token: session.access_token,
    agentId: created.agent.id,
    screenId,
    pageFile,
  });
  answerCpu();
  process.on(
    'disconnect',
    () => void running.close(200).then(() => fs.rmSync(dataDir, { recursive: true, force: true })),
  );
}

/**
 * Answers `cpu` with this process's CPU time so far (µs), and its main thread's alone: the load measures CPU per
 * request with it. The main thread's is what bounds a Node server's throughput (the rest is helper threads: the
 * WAL checkpointer, the garbage collector's).
 */
function answerCpu() {
  process.on('message', (m) => {
    if (m !== 'cpu') return;
    const u = process.cpuUsage();
    const t = process.threadCpuUsage?.();
    process.send({ cpu: u.user + u.system, main: t ? t.user + t.system : null });
  });
}

/** The CPU time (µs) a child process has used so far, all threads and its main thread's (null if unknown). */
function cpuOf(proc) {
  return new Promise((resolve) => {
    const on = (m) => {
      if (typeof m?.cpu !== 'number') return;
      proc.off('message', on);
      resolve({ all: m.cpu, main: m.main });
    };
    proc.on('message', on);
    proc.send('cpu');
  });
}

function start(mode, extra = []) {
  // BENCH_PROFILE=<dir> writes a CPU profile of the service process there (for finding hot spots).
  const execArgv =
    process.env.BENCH_PROFILE && mode === 'service'
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`]
      : [];
  const proc = fork(here, ['child', mode, ...extra], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv,
  });
  return new Promise((resolve) => proc.once('message', (m) => resolve({ proc, info: m })));
}

/** Closed-loop load: CONCURRENCY workers, each sending the next request when the last one answered. */
function loader(port, request, proc) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const once = () =>
    new Promise((resolve, reject) => {
      const t0 = process.hrtime.bigint();
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          agent,
          method: request.method,
          path: request.path,
          headers: request.headers,
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode >= 300) reject(new Error(`status ${res.statusCode} for ${request.path}`));
            else resolve(Number(process.hrtime.bigint() - t0) / 1e6);
          });
        },
      );
      req.on('error', reject);
      req.end(typeof request.body === 'function' ? request.body() : request.body);
    });
  const samples = [];
  let seconds = 0;
  let cpuUs = 0;
  let mainUs = 0;
  return {
    async run(ms, record) {
      const cpu0 = record ? await cpuOf(proc) : null;
      const t0 = Date.now();
      const until = t0 + ms;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (Date.now() < until) {
            const took = await once();
            if (record) samples.push(took);
          }
        }),
      );
      if (record) {
        seconds += (Date.now() - t0) / 1000;
        const cpu1 = await cpuOf(proc);
        cpuUs += cpu1.all - cpu0.all;
        mainUs = cpu1.main === null || mainUs === null ? null : mainUs + cpu1.main - cpu0.main;
      }
    },
    result() {
      agent.destroy();
      samples.sort((a, b) => a - b);
      const rps = samples.length / seconds;
      return {
        rps,
        p99: samples[Math.floor(samples.length * 0.99)],
        cpu: cpuUs / samples.length,
        main: mainUs === null ? null : mainUs / samples.length,
      };
    },
  };
}

/** Warms both up, then alternates SLICES slices of each so both see the same machine. */
async function load(service, serviceReq, plain, plainReq) {
  const svc = loader(service.info.port, serviceReq, service.proc);
  const base = loader(plain.info.port, plainReq, plain.proc);
  await base.run(WARMUP_MS, false);
  await svc.run(WARMUP_MS, false);
  for (let i = 0; i < SLICES; i++) {
    await base.run(DURATION_MS / SLICES, true);
    await svc.run(DURATION_MS / SLICES, true);
  }
  return { svc: svc.result(), base: base.result() };
}

async function main() {
  const service = await start('service');
  const plain = await start('plain', [service.info.pageFile]);
  const auth = { authorization: `Bearer ${service.info.token}` };
  const replyBody = JSON.stringify({ text: 'Sounds good, see you at noon.' });
  const tapBody = JSON.stringify({ screen_id: service.info.screenId, event: { id: 'pick', value: 'Yes' } });
  const jsonHeaders = (body) => ({
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  const cases = [
    {
      name: 'read a thread page (50 rows)',
      service: {
        method: 'GET',
        path: `/functions/v1/svc-app/agents/${service.info.agentId}/messages?limit=50`,
        headers: auth,
      },
      plain: { method: 'GET', path: '/page', headers: {} },
    },
    {
      name: 'type a reply',
      service: {
        method: 'POST',
        path: `/functions/v1/svc-app/agents/${service.info.agentId}/messages`,
        headers: { ...auth, ...jsonHeaders(replyBody) },
        body: replyBody,
      },
      plain: { method: 'POST', path: '/reply', headers: jsonHeaders(replyBody), body: replyBody },
    },
    {
      name: 'tap a component',
      service: {
        method: 'POST',
        path: `/functions/v1/svc-app/agents/${service.info.agentId}/taps`,
        headers: { ...auth, ...jsonHeaders(tapBody) },
        body: tapBody,
      },
      plain: { method: 'POST', path: '/tap', headers: jsonHeaders(tapBody), body: tapBody },
    },
  ];
  console.log(
    `concurrency ${CONCURRENCY}, ${DURATION_MS} ms per case in ${SLICES} slices alternating with the plain handler, after ${WARMUP_MS} ms warm-up, ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)}`,
  );
  const only = process.env.BENCH_ONLY;
  for (const c of cases) {
    if (only && !c.name.includes(only)) continue;
    const { svc, base } = await load(service, c.service, plain, c.plain);
    const ratio = svc.rps / base.rps;
    console.log(
      `${c.name}: service ${svc.rps.toFixed(0)} req/s, p99 ${svc.p99.toFixed(2)} ms, CPU ${svc.cpu.toFixed(1)} us/req | plain node ${base.rps.toFixed(0)} req/s, p99 ${base.p99.toFixed(2)} ms, CPU ${base.cpu.toFixed(1)} us/req | throughput ratio ${ratio.toFixed(3)} (goal >= 0.30: ${ratio >= 0.3 ? 'met' : 'NOT met'}), p99 ratio ${(svc.p99 / base.p99).toFixed(2)}, CPU ratio ${(base.cpu / svc.cpu).toFixed(3)}${svc.main === null ? '' : `, service main thread ${svc.main.toFixed(1)} us/req (plain ${base.main.toFixed(1)})`}`,
    );
  }
  service.proc.disconnect();
  plain.proc.kill();
}
