// CPU per svc_threads call inside the process, the 2026-07-28 way (the SDK's per-request server) against the
// 2025 way (one long-lived server behind the dispatcher), in one run, alternating: no HTTP, no other load,
// so the ratio is the protocol layer's own (ADR 0263). `npx tsx bench/modern-serve.bench.ts`.
import { createTestCore, seedConnection, seedUser } from '@screen-service/test-kit';
import { createProtocolServer } from '../src/protocol-server.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CALLS = Number(process.env.BENCH_CALLS ?? 1000);
const core = createTestCore({ clockMode: 'running' });
const user = await seedUser(core.store, { email: 'bench@example.com' });
const { token } = await seedConnection(core.store, user.id, ['bench']);
const principal = await core.connectionAuth.verify(token);
const protocol = createProtocolServer({
  mcpUrl: 'http://127.0.0.1:1/mcp',
  server: { ops: core.threadOps, tables: core.tables },
});
const authInfo = { token, clientId: 'bench', scopes: [], extra: { principal } };
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const HEADERS = {
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'svc_threads',
  'content-type': 'application/json',
};

async function modern(id: number) {
  const body = {
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'svc_threads', arguments: {}, _meta: META },
  };
  const r = await protocol.serveModern(HEADERS, body, authInfo, new AbortController().signal);
  const text = await r.text();
  if (!text.includes('"agents"')) throw new Error(`unexpected answer: ${text.slice(0, 200)}`);
}
async function legacy(id: number) {
  const [r] = await protocol.serveLegacy(
    [{ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'svc_threads', arguments: {} } }],
    authInfo,
    new AbortController().signal,
  );
  if (!JSON.stringify(r).includes('"agents"')) throw new Error(`unexpected answer: ${JSON.stringify(r)}`);
}

/** CPU microseconds per call over `CALLS` sequential calls. */
async function cpuPerCall(call: (id: number) => Promise<void>) {
  const c0 = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) await call(i);
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / CALLS;
}

await cpuPerCall(modern);
await cpuPerCall(legacy);
const rows = { modern: [] as number[], legacy: [] as number[] };
for (let r = 0; r < ROUNDS; r++) {
  rows.legacy.push(await cpuPerCall(legacy));
  rows.modern.push(await cpuPerCall(modern));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const [m, l] = [median(rows.modern), median(rows.legacy)];
console.log(`svc_threads in-process, ${ROUNDS} rounds of ${CALLS} calls each, median CPU per call:`);
console.log(`  2025 (one server, dispatcher)        ${l.toFixed(0).padStart(5)} us`);
console.log(`  2026-07-28 (per-request server)      ${m.toFixed(0).padStart(5)} us`);
console.log(`ratio 2026-07-28 / 2025 CPU per call: ${(m / l).toFixed(2)}x`);
core.close();
