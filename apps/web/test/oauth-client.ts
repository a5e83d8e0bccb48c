// What an MCP client does around the consent page, over plain HTTP: register, PKCE, the authorize URL, a
// loopback redirect URI that records what it is called with, and the code-for-token exchange.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Callback {
  /** `http://127.0.0.1:<port>/cb` */
  uri: string;
  /** The query of every call so far, oldest first. */
  calls: URLSearchParams[];
  close(): Promise<void>;
}

/** A tiny local HTTP server standing in for the client's redirect URI. */
export async function startCallback(): Promise<Callback> {
  const calls: URLSearchParams[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/cb') calls.push(url.searchParams);
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!doctype html><title>Test client</title><p>Back in the client.</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    uri: `http://127.0.0.1:${port}/cb`,
    calls,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface OAuthClient {
  clientId: string;
  verifier: string;
  state: string;
  authorizeUrl: string;
  /** Trades an authorization code at the token endpoint (public client: no secret). */
  exchange(code: string): Promise<{ status: number; body: Record<string, unknown> }>;
}

const b64url = (bytes: Buffer) => bytes.toString('base64url');

/** Registers a public (`none`) client named `name` and builds a fresh authorize URL with PKCE S256. */
export async function registerClient(
  baseUrl: string,
  name: string,
  redirectUri: string,
): Promise<OAuthClient> {
  const oauth = `${baseUrl}/functions/v1/svc-oauth`;
  const mcp = `${baseUrl}/functions/v1/svc-mcp`;
  const res = await fetch(`${oauth}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: name,
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      scope: 'svc',
    }),
  });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
  const { client_id: clientId } = (await res.json()) as { client_id: string };
  const verifier = b64url(randomBytes(32));
  const state = b64url(randomBytes(12));
  const authorize = new URL(`${oauth}/authorize`);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: b64url(createHash('sha256').update(verifier).digest()),
    code_challenge_method: 'S256',
    resource: mcp,
    scope: 'svc',
    state,
  }))
    authorize.searchParams.set(k, v);
  return {
    clientId,
    verifier,
    state,
    authorizeUrl: authorize.href,
    async exchange(code) {
      const token = await fetch(`${oauth}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          code_verifier: verifier,
          redirect_uri: redirectUri,
          client_id: clientId,
          resource: mcp,
        }),
      });
      return { status: token.status, body: (await token.json()) as Record<string, unknown> };
    },
  };
}

/** The person's API over HTTP: sign up, then authorised calls. */
export async function signUp(baseUrl: string, email: string) {
  const app = `${baseUrl}/functions/v1/svc-app`;
  const res = await fetch(`${app}/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'correct horse battery' }),
  });
  if (!res.ok) throw new Error(`signup: ${res.status} ${await res.text()}`);
  const session = (await res.json()) as { access_token: string };
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const r = await fetch(`${app}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${session.access_token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
    return (await r.json()) as T;
  };
  return { session, call };
}
