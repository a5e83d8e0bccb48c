// Test harness: the real server on 127.0.0.1 over a temp data dir, and a small JSON client for it.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { MOUNTS } from '@screen-service/registry/mounts';
import { createMigratedTestDatabase, testStoreEngine } from '@screen-service/store-postgres/testing';
import pino from 'pino';
import { loadConfig, type RunningServer, startServer } from '../src/index.js';
import type { ServicesOptions } from '../src/services.js';

export const API = MOUNTS.app;

export interface TestServer {
  running: RunningServer;
  base: string;
  dataDir: string;
  /** The PostgreSQL database the server runs on (the config provides testStore postgres), or undefined on SQLite. */
  databaseUrl?: string;
  close(): Promise<void>;
}

/**
 * `env`: extra settings (SVC_VAPID_SUBJECT, ...) on top of the port, host, data folder and base URL. With
 * testStore postgres (provided by vitest.postgres.config.ts) the server runs on a fresh PostgreSQL database.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  /** What the services are built with: a movable clock (`now`), a short status tick. */
  options: ServicesOptions = {},
): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-http-'));
  const postgres = testStoreEngine() === 'postgres' ? await createMigratedTestDatabase() : null;
  // A real port up front, so the base URL (OAuth issuer, resource, links) names the address tests call.
  const port = await new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port: p } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(p));
    });
  });
  const loaded = loadConfig(
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      SVC_DATA_DIR: dataDir,
      SVC_BASE_URL: `http://127.0.0.1:${port}`,
      // On PostgreSQL every instance is given the shared secret (the server refuses to start without it).
      ...(postgres
        ? { SVC_DATABASE_URL: postgres.url, SVC_SECRET: randomBytes(32).toString('base64url') }
        : {}),
      ...env,
    },
    '/',
  );
  // Every answer of the person's API is checked against its route's response schema in tests.
  const config = { ...loaded, checkResponses: true };
  const running = await startServer(config, pino({ level: 'silent' }), options);
  return {
    running,
    base: `http://127.0.0.1:${running.port}`,
    dataDir,
    ...(postgres ? { databaseUrl: postgres.url } : {}),
    async close() {
      await running.close(500);
      fs.rmSync(dataDir, { recursive: true, force: true });
      await postgres?.drop();
    },
  };
}

/** The SQLite file's connection of a test server: the suites that read rows with SQL on it run on SQLite only. */
export function sqliteOf(t: TestServer): NonNullable<RunningServer['db']> {
  const { db } = t.running;
  if (db === null) throw new Error('this test reads the SQLite file; on PostgreSQL read t.databaseUrl');
  return db;
}

export interface Reply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: test responses are checked field by field
  body: any;
}

export function client(base: string) {
  return async function call(
    method: string,
    p: string,
    opts: { token?: string; body?: unknown; raw?: Buffer; type?: string } = {},
  ): Promise<Reply> {
    const headers: Record<string, string> = {};
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: Uint8Array | string | undefined;
    if (opts.raw) {
      headers['content-type'] = opts.type ?? 'image/png';
      body = new Uint8Array(opts.raw);
    } else if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    const res = await fetch(base + (p.startsWith('/functions') || p.startsWith('/openapi') ? p : API + p), {
      method,
      headers,
      body,
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      // not JSON (a photo): keep the text
    }
    return { status: res.status, body: parsed };
  };
}

/** Signs up a person and gives back their access token. */
export async function signUp(call: ReturnType<typeof client>, email: string) {
  const r = await call('POST', '/auth/signup', { body: { email, password: 'correct horse battery' } });
  if (r.status !== 201) throw new Error(`signup failed: ${JSON.stringify(r.body)}`);
  return r.body as { access_token: string; refresh_token: string; user: { id: string } };
}

/** A tiny valid PNG (1x1). */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

export const OAUTH = MOUNTS.oauth;

/**
 * The browser's part of an OAuth sign-in, done over HTTP: follow `/authorize` to the consent page, let the
 * person decide through the person's API, and follow `/finish` back. Returns where the client was sent.
 */
export async function approveInBrowser(
  base: string,
  authorizeUrl: string,
  personToken: string,
  decision: Record<string, unknown> = { decision: 'allow' },
): Promise<{ location: string; requestId: string }> {
  const start = await fetch(authorizeUrl, { redirect: 'manual' });
  const consent = start.headers.get('location');
  if (start.status !== 302 || !consent) throw new Error(`authorize: ${start.status} ${await start.text()}`);
  const requestId = new URL(consent).searchParams.get('request')!;
  const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0]!;
  const decided = await client(base)('POST', `/oauth/requests/${requestId}/decision`, {
    token: personToken,
    body: decision,
  });
  if (decided.status !== 200) throw new Error(`decision: ${decided.status} ${JSON.stringify(decided.body)}`);
  const back = await fetch(`${base}${OAUTH}/requests/${requestId}/finish`, {
    redirect: 'manual',
    headers: { cookie },
  });
  return { location: back.headers.get('location') ?? '', requestId };
}

/** A full public-client sign-in for a person: a registered client and its first tokens. */
export async function oauthSignIn(base: string, personToken: string, clientName = 'OAuth app') {
  const redirect = 'http://127.0.0.1:7777/cb';
  const call = client(base);
  const reg = await call('POST', `${OAUTH}/register`, {
    body: { client_name: clientName, redirect_uris: [redirect], token_endpoint_auth_method: 'none' },
  });
  const verifier = randomBytes(32).toString('base64url');
  const url = new URL(`${base}${OAUTH}/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: reg.body.client_id,
    redirect_uri: redirect,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    resource: `${base}${MOUNTS.mcp}`,
    scope: 'svc',
    state: 'x',
  }).toString();
  const { location, requestId } = await approveInBrowser(base, url.href, personToken);
  const code = new URL(location).searchParams.get('code');
  const res = await fetch(`${base}${OAUTH}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: code ?? '',
      code_verifier: verifier,
      redirect_uri: redirect,
      client_id: reg.body.client_id,
    }),
  });
  const tokens = (await res.json()) as { access_token: string; refresh_token: string };
  if (!tokens.access_token) throw new Error(`token: ${JSON.stringify(tokens)}`);
  return { clientId: reg.body.client_id as string, requestId, ...tokens };
}
