// doc1's token table on the real server with a clock the test moves: an access token `svc_at_` lasts 1 hour
// (the tool server takes it until then and answers 401 after), a refresh token `svc_rt_` lasts 60 days
// (the token endpoint rotates it until then and refuses it after).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MOUNTS } from '@screen-service/registry/mounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, OAUTH, oauthSignIn, signUp, startTestServer, type TestServer } from './harness.js';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
// The clock every rule reads; it stands still unless a test moves it.
let now = Date.UTC(2026, 5, 1, 9, 0, 0);
let t: TestServer;
let mcpUrl: string;

beforeAll(async () => {
  t = await startTestServer({}, { now: () => now });
  mcpUrl = `${t.base}${MOUNTS.mcp}`;
});
afterAll(() => t.close());

/** The tools a client sees with `token`, through the official SDK client. */
async function toolNames(token: string): Promise<string[]> {
  const mcp = new Client({ name: 'lifetime-test', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(mcpUrl), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  try {
    return (await mcp.listTools()).tools.map((tool) => tool.name);
  } finally {
    await mcp.close();
  }
}

/** A bare tool call with `token`: the status and the WWW-Authenticate header the tool server answers. */
async function bareCall(token: string) {
  const res = await fetch(mcpUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  await res.body?.cancel();
  return { status: res.status, challenge: res.headers.get('www-authenticate') };
}

async function refresh(clientId: string, refreshToken: string) {
  const res = await fetch(`${t.base}${OAUTH}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: clientId,
    }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

describe('token lifetimes (doc1: access token 1 hour, refresh token 60 days)', () => {
  it('an access token works until its hour is up and is refused with 401 after', async () => {
    const person = await signUp(client(t.base), 'hour@example.com');
    const issuedAt = now;
    const { access_token: access } = await oauthSignIn(t.base, person.access_token, 'Hour app');
    expect(access).toMatch(/^svc_at_/);

    now = issuedAt + HOUR - 1;
    expect(await toolNames(access)).toContain('svc_show');
    now = issuedAt + HOUR;
    const refused = await bareCall(access);
    expect(refused.status).toBe(401);
    // RFC 6750's invalid_token, and the metadata URL doc1 says every refusal carries.
    expect(refused.challenge).toBe(
      `Bearer error="invalid_token", resource_metadata="${mcpUrl}/.well-known/oauth-protected-resource"`,
    );
  });

  it('a refresh token works until its 60 days are up (each use returns a new one) and is refused after', async () => {
    const person = await signUp(client(t.base), 'sixty@example.com');
    const firstAt = now;
    const first = await oauthSignIn(t.base, person.access_token, 'Sixty app');
    expect(first.refresh_token).toMatch(/^svc_rt_/);

    // The last millisecond of the first token's 60 days: it still works, and returns a new pair.
    now = firstAt + 60 * DAY - 1;
    const secondAt = now;
    const rotated = await refresh(first.clientId, first.refresh_token);
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).toMatch(/^svc_rt_/);
    expect(rotated.body.refresh_token).not.toBe(first.refresh_token);
    expect(await toolNames(rotated.body.access_token!)).toContain('svc_answers');

    // The new one counts its 60 days from its own issue: unused, it is refused once they are over.
    now = secondAt + 60 * DAY;
    const expired = await refresh(first.clientId, rotated.body.refresh_token!);
    expect(expired.status).toBe(400);
    expect(expired.body).toMatchObject({
      error: 'invalid_grant',
      error_description: 'This refresh token expired (60 days); sign in again.',
    });
  });
});
