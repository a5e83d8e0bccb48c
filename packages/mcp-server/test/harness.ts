// Test harness: the real stack on 127.0.0.1 (SQLite file in a temp dir, the connect endpoint, the tool server).
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createConnectRouter } from '@screen-service/connect-api';
import {
  coreMigrations,
  createConnectionAuth,
  createNotifier,
  createPairing,
  createPersonAgents,
  createPersonThreads,
  createSqliteStore,
  createThreadOps,
  newId,
} from '@screen-service/service-core';
import Database from 'better-sqlite3';
import express from 'express';
import { createMcpRouter, type McpRouterOptions } from '../src/index.js';

export type Stack = Awaited<ReturnType<typeof startStack>>;

export async function startStack(extra: Partial<McpRouterOptions> = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-mcp-'));
  const db = new Database(path.join(dir, 'svc.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  for (const m of coreMigrations) db.exec(m.sql);
  const store = createSqliteStore(db);
  const notifier = createNotifier();
  const pairing = createPairing({ store });
  const agents = createPersonAgents({ store, pairing, notifier });
  const threads = createPersonThreads({ store, notifier });
  const stopping = new AbortController();
  const ops = createThreadOps({ store, notifier, shutdown: stopping.signal });
  const auth = createConnectionAuth({ store, expectKind: 'mcp' });

  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  const mcpUrl = `${base}/functions/v1/svc-mcp`;
  const errors: unknown[] = [];
  const app = express();
  app.use('/functions/v1/svc-connect', createConnectRouter({ pairing }));
  app.use(
    '/functions/v1/svc-mcp',
    createMcpRouter({
      ops,
      auth,
      mcpUrl,
      onError: (e) => errors.push(e),
      ...extra,
    }),
  );
  server.on('request', app);
  const clients: Client[] = [];

  async function newUser() {
    return store.users.create({
      id: newId('usr_'),
      email: `${newId()}@example.com`,
      passwordHash: 'unused',
      firstName: null,
      createdAt: Date.now(),
      suspendedAt: null,
    });
  }

  /** The app's "add an agent" (mints a code), then the host's `pair` over HTTP. */
  async function pairAgent(userId: string, name: string, opts: { token?: string; kind?: string } = {}) {
    const { agent, pairing: minted } = await agents.create(userId, { name });
    const res = await fetch(`${base}/functions/v1/svc-connect`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      },
      body: JSON.stringify({
        action: 'pair',
        code: minted?.code,
        remote_ref: name.toLowerCase().replace(/\W+/g, '-'),
        kind: opts.kind ?? 'mcp',
        host_name: 'test laptop',
      }),
    });
    const body = (await res.json()) as { connector_token: string | null; connector: { id: string } };
    if (res.status !== 200) throw new Error(`pair failed: ${res.status} ${JSON.stringify(body)}`);
    return { agent, token: body.connector_token ?? opts.token ?? '', connectorId: body.connector.id };
  }

  /** A user with one paired agent. */
  async function newConnection(name = 'Coach') {
    const user = await newUser();
    const paired = await pairAgent(user.id, name);
    return { user, ...paired };
  }

  async function connect(token: string) {
    const client = new Client({ name: 'svc-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(mcpUrl), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    clients.push(client);
    return client;
  }

  return {
    dir,
    db,
    store,
    notifier,
    agents,
    threads,
    ops,
    base,
    mcpUrl,
    errors,
    stopping,
    newUser,
    pairAgent,
    newConnection,
    connect,
    async close() {
      stopping.abort();
      await Promise.all(clients.map((c) => c.close().catch(() => {})));
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** POSTs raw JSON-RPC to the tool server (for the transport and auth rules the SDK client never breaks). */
export async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, headers: res.headers, json: json as Record<string, unknown> | null, text };
}
