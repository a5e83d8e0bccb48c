// Bench server process: the real tool server (SQLite in a temp dir) and a plain JSON-RPC echo, on 127.0.0.1.
// Driven over IPC by mcp-bench.mjs.
import http from 'node:http';
import { createServiceListener, sendJsonRpcError } from '@screen-service/http-kit';
import { startWalCheckpointer } from '@screen-service/store-sqlite';
import { createTestCore, seedConnection, seedUser } from '@screen-service/test-kit';
import express from 'express';
import { createMcpHandler, createMcpRouter } from '../dist/index.js';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
// The whole core on a SQLite file in a temp dir, on the wall clock, as the server opens it (WAL, NORMAL,
// checkpoints in a worker; BENCH_CHECKPOINT=commit leaves them in the commit to compare).
// The per-thread host message limit (ADR 0248) is lifted like the tool-call rate below: the bench measures
// the tool server, not the limiter's refusals.
const core = createTestCore({
  clockMode: 'running',
  hostMessageRate: { burst: 1_000_000_000, perMinute: 60_000_000_000 },
});
core.db.pragma('synchronous = NORMAL');
const checkpoints = process.env.BENCH_CHECKPOINT === 'commit' ? null : startWalCheckpointer(core.db);
const { store, notifier, threads, threadOps: ops, connectionAuth: auth } = core;
const errors = [];

const connections = [];
for (let i = 0; i < CONNECTIONS; i++) {
  const user = await seedUser(store, { email: `bench${i}@example.com` });
  const { token, agents } = await seedConnection(store, user.id, [`bench${i}`]);
  connections.push({ userId: user.id, agentId: agents[0].id, token });
}

const server = http.createServer();
server.keepAliveTimeout = 60_000;
server.maxRequestsPerSocket = 0;
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = server.address().port;
const mcpUrl = `http://127.0.0.1:${port}/functions/v1/svc-mcp`;

const mcp = createMcpHandler({
  ops,
  auth,
  mcpUrl,
  rateLimit: { burst: 1_000_000, perMinute: 60_000_000 },
  onError: (e) => errors.push(String(e)),
});
const app = express();
app.use('/functions/v1/svc-mcp', createMcpRouter(mcp));
// Served as apps/server serves it: one listener that gives the MCP path to its handler and the rest to
// Express (ADR 0242); BENCH_VIA=express sends every call through the Express app instead, to compare.
const listener = createServiceListener({
  steps: [],
  routes: { '/functions/v1/svc-mcp': mcp },
  fallback: app,
  onError: (err, _req, res) => sendJsonRpcError(res, err),
});
server.on('request', process.env.BENCH_VIA === 'express' ? app : listener);

// The baseline: a plain Node HTTP server that parses a JSON-RPC request and echoes a result.
const echo = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const msg = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const body = JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { echo: msg.params ?? null } });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
echo.keepAliveTimeout = 60_000;
await new Promise((resolve) => echo.listen(0, '127.0.0.1', resolve));

function listeners() {
  let n = 0;
  for (const c of connections) n += notifier.listenerCount(c.userId);
  return n;
}

process.on('message', async (m) => {
  try {
    switch (m.cmd) {
      case 'listeners':
        process.send({ id: m.id, value: listeners() });
        break;
      case 'say':
        await threads.say(m.userId, m.agentId, { text: m.text });
        process.send({ id: m.id, value: true });
        break;
      case 'tap':
        await threads.tap(m.userId, m.agentId, { screen_id: m.screenId, event: { id: 'pick', value: 'A' } });
        process.send({ id: m.id, value: true });
        break;
      case 'cpu': {
        const u = process.cpuUsage();
        process.send({ id: m.id, value: u.user + u.system });
        break;
      }
      case 'mem': {
        for (let i = 0; i < 3; i++) globalThis.gc?.();
        const u = process.memoryUsage();
        process.send({ id: m.id, value: { heapUsed: u.heapUsed, rss: u.rss, external: u.external } });
        break;
      }
      case 'errors':
        process.send({ id: m.id, value: errors });
        break;
      case 'stop':
        server.closeAllConnections();
        echo.closeAllConnections();
        server.close();
        echo.close();
        await checkpoints?.stop();
        core.close();
        process.send({ id: m.id, value: true }, () => process.exit(0));
        break;
      default:
        process.send({ id: m.id, error: `unknown command ${m.cmd}` });
    }
  } catch (e) {
    process.send({ id: m.id, error: String(e) });
  }
});

process.send({
  ready: true,
  mcpUrl,
  echoUrl: `http://127.0.0.1:${echo.address().port}/`,
  connections,
});
