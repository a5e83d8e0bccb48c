// Accounts, agents and connections made through the real APIs: sign-up, the app's Add agent, pairing, OAuth.
import { createHash } from 'node:crypto';
import { mintName, mintSecret } from '@screen-service/registry/kernel';
import { type Reply, request } from './http.js';

export const APP = '/functions/v1/svc-app';
export const CONNECT = '/functions/v1/svc-connect';
export const MCP = '/functions/v1/svc-mcp';
export const OAUTH = '/functions/v1/svc-oauth';

/** Sign-ups one source address may make at once (accounts.ts: burst 20); the set-up moves on to 127.0.0.x+1. */
const SIGNUPS_PER_ADDRESS = 20;

export interface Person {
  email: string;
  userId: string;
  /** The app's access token (15 minutes). */
  token: string;
}

export interface Connection {
  agentId: string;
  /** `svc_ct_...` from `pair`. */
  token: string;
}

function fail(what: string, r: Reply): never {
  throw new Error(`${what} answered ${r.status}: ${r.text.slice(0, 300)}`);
}

/** Runs `fn` over `items` with at most `limit` in flight; results in input order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, i: number) => Promise<R>,
) {
  const out: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T, i);
    }
  });
  await Promise.all(workers);
  return out;
}

/** Signs up `count` people, spreading them over loopback source addresses (20 sign-ups per address). */
export async function signUpPeople(base: string, count: number, prefix = 'load'): Promise<Person[]> {
  const run = mintName(3);
  return mapLimit(
    Array.from({ length: count }, (_, i) => i),
    8,
    async (i) => {
      const email = `${prefix}-${run}-${i}@example.com`;
      const localAddress = `127.0.${1 + Math.floor(i / (SIGNUPS_PER_ADDRESS * 250))}.${2 + (Math.floor(i / SIGNUPS_PER_ADDRESS) % 250)}`;
      const r = await request(`${base}${APP}/auth/signup`, {
        body: { email, password: 'correct horse battery staple' },
        localAddress,
      });
      if (r.status !== 201) fail(`sign-up of ${email}`, r);
      return { email, userId: r.json.user.id, token: r.json.access_token };
    },
  );
}

/** The app's Add agent: a new agent and its 6-digit code. */
export async function addAgent(base: string, person: Person, name: string) {
  const r = await request(`${base}${APP}/agents`, {
    headers: { authorization: `Bearer ${person.token}` },
    body: { name },
  });
  if (r.status !== 201) fail(`POST /agents for ${person.email}`, r);
  return { agentId: r.json.agent.id as string, code: r.json.pairing.code as string };
}

/** Adds an agent and pairs it with its code as a new computer (`kind` mcp for tool clients, hostfw for hosts). */
export async function pairNewConnection(
  base: string,
  person: Person,
  name: string,
  kind: 'mcp' | 'hostfw' = 'mcp',
): Promise<Connection> {
  const { agentId, code } = await addAgent(base, person, name);
  const r = await request(`${base}${CONNECT}`, {
    body: { action: 'pair', code, remote_ref: 'main', kind, host_name: name },
  });
  if (r.status !== 200) fail(`pair ${name}`, r);
  return { agentId, token: r.json.connector_token };
}

export interface OAuthGrant {
  clientId: string;
  agentId: string | null;
  accessToken: string;
  refreshToken: string;
}

/** A public OAuth client's whole sign-in: register, authorize, the person allows in the app, code → tokens. */
export async function oauthSignIn(base: string, person: Person, name: string): Promise<OAuthGrant> {
  const redirect = 'http://127.0.0.1:7777/cb';
  const reg = await request(`${base}${OAUTH}/register`, {
    body: { client_name: name, redirect_uris: [redirect], token_endpoint_auth_method: 'none' },
  });
  if (reg.status !== 201) fail('OAuth register', reg);
  const verifier = mintSecret('');
  const url = new URL(`${base}${OAUTH}/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: reg.json.client_id,
    redirect_uri: redirect,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    resource: `${base}${MCP}`,
    scope: 'svc',
    state: 'x',
  }).toString();
  const start = await request(url.href);
  const consent = start.headers.location;
  if (start.status !== 302 || !consent) fail('OAuth authorize', start);
  const requestId = new URL(consent).searchParams.get('request') ?? '';
  const cookie = String(start.headers['set-cookie']?.[0] ?? '').split(';')[0] ?? '';
  const decided = await request(`${base}${APP}/oauth/requests/${requestId}/decision`, {
    headers: { authorization: `Bearer ${person.token}` },
    body: { decision: 'allow', agent_name: name },
  });
  if (decided.status !== 200) fail('OAuth decision', decided);
  const back = await request(`${base}${OAUTH}/requests/${requestId}/finish`, { headers: { cookie } });
  const code = new URL(String(back.headers.location ?? 'http://x/')).searchParams.get('code');
  if (!code) fail('OAuth finish', back);
  const tokens = await tokenRequest(base, {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: redirect,
    client_id: reg.json.client_id,
  });
  if (tokens.status !== 200) fail('OAuth token', tokens);
  return {
    clientId: reg.json.client_id,
    agentId: decided.json?.agent?.id ?? null,
    accessToken: tokens.json.access_token,
    refreshToken: tokens.json.refresh_token,
  };
}

/** POST {oauth}/token with a form body. */
export function tokenRequest(
  base: string,
  form: Record<string, string>,
  options: { timeoutMs?: number; localAddress?: string } = {},
): Promise<Reply> {
  return request(`${base}${OAUTH}/token`, {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
    timeoutMs: options.timeoutMs ?? 30_000,
    ...(options.localAddress ? { localAddress: options.localAddress } : {}),
  });
}
