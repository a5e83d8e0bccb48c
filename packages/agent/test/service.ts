// The agent SDK's tests run against the real built server: its harness (apps/server/test/service-process.ts),
// and the OAuth sign-in of a public client, which only these tests use.
import { APP, json, MCP } from '../../../apps/server/test/service-process.js';

export * from '../../../apps/server/test/service-process.js';

const OAUTH = '/functions/v1/svc-oauth';

/**
 * A public OAuth client's whole sign-in for a person who already has an agent: register, authorize, the
 * person allows it in the app as that agent, code → tokens. Gives the access and refresh tokens.
 */
export async function oauthSignIn(base: string, personToken: string, agentId: string) {
  const redirect = 'http://127.0.0.1:7777/cb';
  const reg = await fetch(`${base}${OAUTH}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'SDK app',
      redirect_uris: [redirect],
      token_endpoint_auth_method: 'none',
    }),
  });
  const clientId = (await json(reg)).client_id as string;
  const verifier = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  const challenge = btoa(String.fromCharCode(...digest))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
  const url = new URL(`${base}${OAUTH}/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirect,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource: `${base}${MCP}`,
    scope: 'svc',
    state: 'x',
  }).toString();
  const start = await fetch(url, { redirect: 'manual' });
  const requestId = new URL(start.headers.get('location') ?? 'http://x/').searchParams.get('request') ?? '';
  const cookie = (start.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
  const decided = await fetch(`${base}${APP}/oauth/requests/${requestId}/decision`, {
    method: 'POST',
    headers: { authorization: `Bearer ${personToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ decision: 'allow', agent_id: agentId }),
  });
  if (decided.status !== 200) throw new Error(`decision: ${decided.status} ${await decided.text()}`);
  const back = await fetch(`${base}${OAUTH}/requests/${requestId}/finish`, {
    redirect: 'manual',
    headers: { cookie },
  });
  const code = new URL(back.headers.get('location') ?? 'http://x/').searchParams.get('code') ?? '';
  const tokens = await fetch(`${base}${OAUTH}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: redirect,
      client_id: clientId,
    }),
  });
  const body = await json(tokens);
  if (!body?.access_token) throw new Error(`token: ${tokens.status} ${JSON.stringify(body)}`);
  return { accessToken: body.access_token as string, refreshToken: body.refresh_token as string };
}
