// Benchmark (issue 20): one instance vs three behind nginx (deploy/nginx/screen-service-three-instances.conf),
// each a separate process on one PostgreSQL, against a plain HTTP echo behind the same nginx in the same
// run; and the cross-instance wake over HTTP (tap on one process, svc_answers waiting on another).
// Run: npm run bench -w apps/server. On a 2-core machine the three instances, nginx, PostgreSQL and this
// load generator share two cores: read the ratios with `uptime`.
import { execSync } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MOUNTS } from '@screen-service/registry/mounts';
import { createTestDatabase } from '@screen-service/store-postgres/testing';
import setupPostgres from '../../../config/postgres-setup.ts';
import { deployment, pairedPerson, request, spawnInstance, toolCall } from '../test/instances.ts';
import { prepareNginx } from '../test/nginx-run.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONCURRENCY = 32;
const WAKES = Number(process.env.BENCH_WAKES ?? 100);
const here = path.dirname(fileURLToPath(import.meta.url));
const SITE = path.resolve(here, '../../../deploy/nginx/screen-service-three-instances.conf');
const pct = (s: number[], p: number) => s[Math.min(s.length - 1, Math.floor(s.length * p))]!;

let adminUrl = '';
const teardown = await setupPostgres({ provide: (_key: string, url: string) => (adminUrl = url) } as never);
const db = await createTestDatabase(adminUrl);
const proxy = await prepareNginx(SITE);
const d = deployment(db.url);
const unlimited = {
  SVC_MCP_RATE_BURST: '100000000',
  SVC_MCP_RATE_PER_MINUTE: '100000000',
  SVC_HOST_MESSAGE_RATE_BURST: '100000000',
  SVC_HOST_MESSAGE_RATE_PER_MINUTE: '100000000',
};
const env = { SVC_BASE_URL: proxy.base, SVC_TRUST_PROXY: 'loopback', ...unlimited };
const instances = [];
for (const name of ['a', 'b', 'c']) instances.push(await spawnInstance(d, name, env));
const ports = instances.map((i) => i.port);

// The echo: answers any POST with a small JSON body, as cheap as an HTTP server gets.
const echo = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.setHeader('content-type', 'application/json');
    res.end('{"jsonrpc":"2.0","id":1,"result":{}}');
  });
});
await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
const echoPort = (echo.address() as { port: number }).port;

// Calls through the proxy with the instances' Host (the proxy's own address).
const host = new URL(proxy.base).host;
// Eight people, four callers each: one thread per person (a thread's writes are serialised by design).
const people = [];
for (let i = 0; i < 8; i++) people.push(await pairedPerson(ports, `bench${i}@example.com`, host));
async function load(label: string): Promise<number> {
  let calls = 0;
  let failed = 0;
  const until = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, n) => {
      const p = people[n % people.length]!;
      while (performance.now() < until) {
        const r = await proxy.fetch(`${proxy.base}${MOUNTS.mcp}`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${p.connectorToken}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2025-06-18',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name: 'svc_show', arguments: { lines: 'choose@lunch "Lunch?" Pasta|Salad' } },
          }),
        });
        await r.arrayBuffer();
        if (r.status === 200) calls++;
        else failed++;
      }
    }),
  );
  if (failed > 0) console.log(`  (${label}: ${failed} calls failed)`);
  return calls / SECONDS;
}

console.log(`load before: ${execSync('uptime').toString().trim()}`);
const rows: [string, number][] = [];
await proxy.start([echoPort, echoPort, echoPort]);
rows.push(['echo behind nginx', await load('echo')]);
await proxy.halt();
await proxy.start([ports[0]!, ports[0]!, ports[0]!]);
rows.push(['svc_show, one instance behind nginx', await load('one')]);
await proxy.halt();
await proxy.start(ports);
rows.push(['svc_show, three instances behind nginx', await load('three')]);
console.log(`\nThroughput through nginx, ${CONCURRENCY} concurrent callers, ${SECONDS} s each (calls/s)`);
for (const [label, n] of rows) {
  console.log(`  ${label.padEnd(42)} ${n.toFixed(0).padStart(7)}  x${(n / rows[0]![1]).toFixed(3)} of echo`);
}
console.log(`  three / one: x${(rows[2]![1] / rows[1]![1]).toFixed(2)}`);

// The wake over HTTP between processes: svc_answers held on instance b, the tap through instance a.
const w = await pairedPerson(ports, 'wake@example.com', host);
const times: number[] = [];
for (let i = 0; i < WAKES + 5; i++) {
  const lines = 'choose@lunch "Lunch?" Pasta|Salad';
  const shown = await toolCall(ports[0]!, w.connectorToken, 'svc_show', { lines }, host);
  const screenId = shown.body.result.structuredContent.screen_id;
  const waiting = toolCall(
    ports[1]!,
    w.connectorToken,
    'svc_answers',
    { screen_id: screenId, wait: 10 },
    host,
  );
  await new Promise((r) => setTimeout(r, 30)); // the wait is held (subscribed) on b
  const t0 = performance.now();
  await request(ports[0]!, 'POST', `/agents/${w.agentId}/taps`, {
    host,
    token: w.token,
    body: { screen_id: screenId, event: { id: 'lunch', value: 'Pasta' } },
  });
  const got = await waiting;
  if (got.body.result.structuredContent.answers.length !== 1) throw new Error(`wake ${i}: no answer`);
  if (i >= 5) times.push(performance.now() - t0);
}
times.sort((x, y) => x - y);
console.log(
  `\nWake over HTTP between processes (tap request on a -> svc_answers answered on b), ${WAKES} wakes: p50 ${pct(times, 0.5).toFixed(1)} ms, p99 ${pct(times, 0.99).toFixed(1)} ms (goal p99 < 50 ms)`,
);
console.log(`\nload after: ${execSync('uptime').toString().trim()}`);

await proxy.stop();
echo.close();
for (const i of instances) await i.close();
await db.drop();
await teardown();
