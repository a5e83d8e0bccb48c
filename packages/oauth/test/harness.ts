// A real authorization server for tests: a SQLite file with the core schema, the rules, and the routers
// on 127.0.0.1, plus helpers that walk a browser's part of the flow over plain HTTP.
import type { AddressInfo } from 'node:net';
import type { Store } from '@screen-service/registry/model';
import { serviceUrls } from '@screen-service/registry/mounts';
import { testStoreOption } from '@screen-service/store-postgres/testing';
import { createTestCore, seedUser } from '@screen-service/test-kit';
import express from 'express';
import { createOAuthServer, type OAuthServer, type OAuthServerOptions } from '../src/oauth-server.js';
import { createOAuthMounts, type OAuthRateLimits } from '../src/router.js';

export interface TestAuthServer {
  base: string;
  oauthUrl: string;
  mcpUrl: string;
  store: Store;
  oauth: OAuthServer;
  agents: ReturnType<typeof createTestCore>['agents'];
  pairing: ReturnType<typeof createTestCore>['pairing'];
  /** Moves the rules' clock (ms) forward. */
  advance(ms: number): void;
  close(): Promise<void>;
}

export async function startAuthServer(
  rateLimits?: Partial<OAuthRateLimits>,
  more: Pick<OAuthServerOptions, 'clientMetadataDocuments'> = {},
): Promise<TestAuthServer> {
  const app = express();
  app.set('trust proxy', 'loopback');
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const urls = serviceUrls(base);
  // The shared test kit: a real SQLite file (or, when the config provides testStore postgres, a fresh PostgreSQL database)
  // with the core schema and the core's rules over it.
  const core = createTestCore({ urls, clockMode: 'running', ...(await testStoreOption()) });
  const { store, agents, pairing, notifier } = core;
  const oauth = createOAuthServer({
    store,
    agents,
    urls,
    notifier,
    now: core.clock,
    random: core.random,
    ...more,
  });
  // The mounts the server uses: the authorization server, its metadata under the MCP URL and both
  // path-inserted discovery locations on the host.
  app.use(createOAuthMounts({ oauth, mcpUrl: urls.mcpUrl, ...(rateLimits ? { rateLimits } : {}) }));
  return {
    base,
    oauthUrl: urls.oauthUrl,
    mcpUrl: urls.mcpUrl,
    store,
    oauth,
    agents,
    pairing,
    advance: core.advance,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      core.close();
    },
  };
}

/** A person with one account (rows written straight through the store). */
export async function seedPerson(store: Store, email?: string) {
  return seedUser(store, email === undefined ? {} : { email });
}

/** The browser's first step: `/authorize` answers 302 to the consent page with the request's cookie. */
export async function startAuthorize(url: string) {
  const res = await fetch(url, { redirect: 'manual' });
  const location = res.headers.get('location') ?? '';
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const requestId = location ? new URL(location).searchParams.get('request') : null;
  return { status: res.status, location, cookie, requestId, res };
}

/** The browser's last step: `/requests/:id/finish` answers 302 to the client's redirect URI. */
export async function finish(oauthUrl: string, requestId: string, cookie: string) {
  const res = await fetch(`${oauthUrl}/requests/${requestId}/finish`, {
    redirect: 'manual',
    headers: { cookie },
  });
  return { status: res.status, location: res.headers.get('location') ?? '', res };
}

export async function postForm(
  url: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form),
  });
  const text = await res.text();
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are checked field by field
  let body: any = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // keep text
  }
  return { status: res.status, body, headers: res.headers };
}

export async function postJson(url: string, json: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(json),
  });
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are checked field by field
  const body: any = await res.json().catch(() => null);
  return { status: res.status, body, headers: res.headers };
}
