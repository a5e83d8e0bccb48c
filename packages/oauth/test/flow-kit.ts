// Short ways through the flow for the refusal tests: register, authorize, approve, finish, trade.
import { createHash, randomBytes } from 'node:crypto';
import { finish, postForm, postJson, seedPerson, startAuthorize, type TestAuthServer } from './harness.js';

export const REDIRECT = 'http://127.0.0.1:7777/callback';

export interface Registered {
  clientId: string;
  secret: string | null;
  method: 'none' | 'client_secret_post' | 'client_secret_basic';
}

export async function register(
  s: TestAuthServer,
  method: Registered['method'] = 'none',
  extra: Record<string, unknown> = {},
): Promise<Registered> {
  const r = await postJson(`${s.oauthUrl}/register`, {
    client_name: 'Kit client',
    redirect_uris: [REDIRECT],
    token_endpoint_auth_method: method,
    ...extra,
  });
  if (r.status !== 201) throw new Error(`register: ${r.status} ${JSON.stringify(r.body)}`);
  return { clientId: r.body.client_id, secret: r.body.client_secret ?? null, method };
}

export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function authorizeUrl(
  s: TestAuthServer,
  clientId: string,
  challenge: string,
  over: Record<string, string | null> = {},
) {
  const params: Record<string, string | null> = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource: s.mcpUrl,
    scope: 'svc',
    state: 'st-1',
    ...over,
  };
  const url = new URL(`${s.oauthUrl}/authorize`);
  for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
  return url.href;
}

/** Credentials for the token endpoint as the client registered them. */
export function clientAuth(c: Registered): { form: Record<string, string>; headers: Record<string, string> } {
  if (c.method === 'client_secret_basic') {
    const basic = Buffer.from(`${encodeURIComponent(c.clientId)}:${encodeURIComponent(c.secret!)}`).toString(
      'base64',
    );
    return { form: {}, headers: { authorization: `Basic ${basic}` } };
  }
  if (c.method === 'client_secret_post')
    return { form: { client_id: c.clientId, client_secret: c.secret! }, headers: {} };
  return { form: { client_id: c.clientId }, headers: {} };
}

/** Runs the flow to an approved, finished request and returns the code with what the token call needs. */
export async function approvedCode(s: TestAuthServer, c?: Registered, userId?: string) {
  const client = c ?? (await register(s));
  const { verifier, challenge } = pkce();
  const started = await startAuthorize(authorizeUrl(s, client.clientId, challenge));
  if (started.status !== 302 || !started.requestId) throw new Error(`authorize: ${started.status}`);
  const person = userId ?? (await seedPerson(s.store)).id;
  const view = await s.oauth.decide(person, started.requestId, { decision: 'allow' });
  const back = await finish(s.oauthUrl, started.requestId, started.cookie);
  const code = new URL(back.location).searchParams.get('code');
  if (!code) throw new Error(`finish: ${back.location}`);
  return { client, code, verifier, userId: person, agentId: view.agent!.id, requestId: started.requestId };
}

export function trade(
  s: TestAuthServer,
  a: { client: Registered; code: string; verifier: string },
  over: Record<string, string> = {},
) {
  const auth = clientAuth(a.client);
  return postForm(
    `${s.oauthUrl}/token`,
    {
      grant_type: 'authorization_code',
      code: a.code,
      code_verifier: a.verifier,
      redirect_uri: REDIRECT,
      resource: s.mcpUrl,
      ...auth.form,
      ...over,
    },
    auth.headers,
  );
}

export function refresh(s: TestAuthServer, client: Registered, token: string) {
  const auth = clientAuth(client);
  return postForm(
    `${s.oauthUrl}/token`,
    { grant_type: 'refresh_token', refresh_token: token, ...auth.form },
    auth.headers,
  );
}
