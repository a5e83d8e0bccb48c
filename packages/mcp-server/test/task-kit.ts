// Tool server instances for the task tests and the task latency bench: each its own core, MCP server and
// HTTP port over a connection of its own to one database; raw 2026-07-28 JSON-RPC (the SDK client refuses a
// `resultType` it does not know).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { TASKS_EXTENSION_ID_V2 } from '@modelcontextprotocol/ext-tasks/core/v2';
import type { Store } from '@screen-service/registry/model';
import { MOUNTS, serviceUrls } from '@screen-service/registry/mounts';
import { createPostgresStore } from '@screen-service/store-postgres';
import { createSqliteStore } from '@screen-service/store-sqlite';
import { createTestCore, seedConnection, seedUser, type TestStore } from '@screen-service/test-kit';
import Database from 'better-sqlite3';
import pg from 'pg';
import { createMcpHandler } from '../src/index.js';

/** The TTL the test instances give tasks. */
export const TTL_MS = 60_000;

/** One tool server instance (its own core, MCP server and HTTP port) over a store. */
export async function startInstance(testStore: TestStore, pollMs = 500) {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const urls = serviceUrls(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const core = createTestCore({
    urls,
    clockMode: 'running',
    testStore,
    answerTasks: { ttlMs: TTL_MS, pollMs },
  });
  const handler = createMcpHandler({ ops: core.threadOps, auth: core.connectionAuth, mcpUrl: urls.mcpUrl });
  server.on('request', (req, res) => {
    if (req.url?.startsWith(MOUNTS.mcp)) void handler(req, res);
    else res.writeHead(404).end();
  });
  return {
    core,
    url: urls.mcpUrl,
    async close() {
      core.stopping.abort();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      testStore.close();
    },
  };
}

/** Another connection to the database of `first` (what a second process, or the same after a restart, opens). */
export function sibling(first: TestStore): TestStore {
  if ('pool' in first && first.pool instanceof pg.Pool) {
    const pool = new pg.Pool({ connectionString: first.pool.options.connectionString, max: 4 });
    pool.on('error', () => {});
    return { ...first, store: createPostgresStore(pool), close: () => void pool.end().catch(() => {}) };
  }
  const db = new Database(first.file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  return { ...first, db, store: createSqliteStore(db), close: () => db.close() };
}

const MODERN_META = (tasks: boolean) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': tasks ? { extensions: { [TASKS_EXTENSION_ID_V2]: {} } } : {},
});

/** One 2026-07-28 request as raw JSON-RPC (the SDK client refuses a `resultType` it does not know). */
export async function rpc(
  url: string,
  token: string,
  method: string,
  params: Record<string, unknown>,
  tasks = true,
) {
  const name = typeof params.name === 'string' ? params.name : params.taskId;
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: MODERN_META(tasks) } }),
  });
  return (await res.json()) as {
    result?: Record<string, unknown>;
    error?: { code: number; message: string };
  };
}

/** A user with one connection serving one agent. */
export async function seeded(store: Store, handle = 'coach') {
  const user = await seedUser(store, { passwordHash: 'unused' });
  const { token, agents, connector } = await seedConnection(store, user.id, [handle]);
  return { user, token, agent: agents[0]!, connector };
}
