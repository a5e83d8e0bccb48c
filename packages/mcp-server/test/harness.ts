// Test harness: the real stack on 127.0.0.1 (SQLite file in a temp dir, the connect endpoint, the tool server).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createConnectRouter } from '@screen-service/connect-api';
import { MOUNTS, serviceUrls } from '@screen-service/registry/mounts';
import { testStoreOption } from '@screen-service/store-postgres/testing';
import { createTestCore, seedUser } from '@screen-service/test-kit';
import express from 'express';
import { createMcpRouter, type McpRouterOptions } from '../src/index.js';

export type Stack = Awaited<ReturnType<typeof startStack>>;

export async function startStack(extra: Partial<McpRouterOptions> = {}) {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  const urls = serviceUrls(base);
  const mcpUrl = urls.mcpUrl;
  // The shared test kit: a real SQLite file in a temp dir (or, when the config provides testStore postgres, a fresh PostgreSQL
  // database) with the core schema and every rule over it.
  const core = createTestCore({ urls, clockMode: 'running', ...(await testStoreOption()) });
  const { db, store, notifier, agents, threads, pairing, stopping } = core;
  const ops = core.threadOps;
  const auth = core.connectionAuth;
  const dir = core.testStore.dir;
  const errors: unknown[] = [];
  const app = express();
  app.use(MOUNTS.connect, createConnectRouter({ pairing }));
  app.use(
    MOUNTS.mcp,
    createMcpRouter({
      ops,
      tables: core.tables,
      auth,
      mcpUrl,
      onError: (e) => errors.push(e),
      ...extra,
    }),
  );
  server.on('request', app);
  const clients: Client[] = [];

  async function newUser() {
    return seedUser(store, { passwordHash: 'unused' });
  }

  /** The app's "add an agent" (mints a code), then the host's `pair` over HTTP. */
  async function pairAgent(userId: string, name: string, opts: { token?: string; kind?: string } = {}) {
    const { agent, pairing: minted } = await agents.create(userId, { name });
    const res = await fetch(urls.connectUrl, {
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
    core,
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
      core.close();
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
