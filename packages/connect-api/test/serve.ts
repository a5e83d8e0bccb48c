// Test set-up: the connect router over the shared test kit (real SQLite file, or when the config provides testStore postgres a
// fresh PostgreSQL database; the core's rules) on 127.0.0.1.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { testStoreOption } from '@screen-service/store-postgres/testing';
import { createTestCore, seedUser, type TestCore } from '@screen-service/test-kit';
import express from 'express';
import { createConnectRouter } from '../src/connect-handler.js';

export interface Served {
  core: TestCore;
  url: string;
  server: Server;
  close(): Promise<void>;
}

export async function serveConnect(options: { keepaliveMs?: number } = {}): Promise<Served> {
  const core = createTestCore({ clockMode: 'running', statusTickMs: 50, ...(await testStoreOption()) });
  const app = express();
  app.use(
    '/functions/v1/svc-connect',
    createConnectRouter({
      pairing: core.pairing,
      hosts: core.hosts,
      hostAuth: core.hostAuth,
      transport: core.hostTransport,
      tables: { tables: core.tables, auth: core.anyConnectionAuth },
      ...options,
    }),
  );
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/functions/v1/svc-connect`;
  return {
    core,
    url,
    server,
    async close() {
      core.stopping.abort();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      core.close();
    },
  };
}

export interface Reply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field
  body: any;
}

export function poster(url: string) {
  return async (body: unknown, token?: string, path = ''): Promise<Reply> => {
    const res = await fetch(url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text === '' ? null : JSON.parse(text) };
  };
}

/** A person with an agent paired to a fresh `hostfw` connector over HTTP (profile `main`). */
export async function pairedHost(s: Served, email: string, profile = 'main', token?: string) {
  const user = (await s.core.store.users.findByEmail(email)) ?? (await seedUser(s.core.store, { email }));
  const { agent, pairing } = await s.core.agents.create(user.id, { name: `${profile} agent` });
  const r = await poster(s.url)(
    { action: 'pair', code: pairing!.code, remote_ref: profile, kind: 'hostfw', host_name: `${email} box` },
    token,
  );
  if (r.status !== 200) throw new Error(`pair: ${JSON.stringify(r.body)}`);
  return {
    userId: user.id,
    agentId: agent.id as string,
    token: (token ?? r.body.connector_token) as string,
    connectorId: r.body.connector.id as string,
  };
}
