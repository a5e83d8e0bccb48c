// Every refusal the issue names, against the real server over HTTP: each is refused with a standard OAuth
// error body, and nothing is granted or left half-written.
import { createConnectionAuth } from '@screen-service/registry/hosts';
import { isServiceError } from '@screen-service/registry/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  approvedCode,
  authorizeUrl,
  clientAuth,
  pkce,
  REDIRECT,
  refresh,
  register,
  trade,
} from './flow-kit.js';
import { postForm, postJson, startAuthorize, startAuthServer, type TestAuthServer } from './harness.js';

let s: TestAuthServer;
beforeAll(async () => {
  // This file registers many clients from one address: a roomier registration bucket than the default.
  s = await startAuthServer({ register: { burst: 500, perMinute: 60 } });
});
afterAll(() => s.close());

/** The error and description of a redirect back to the client, with the `state` and `iss` it carries. */
function backParams(location: string) {
  const u = new URL(location);
  expect(`${u.origin}${u.pathname}`).toBe(REDIRECT);
  return Object.fromEntries(u.searchParams);
}

describe('PKCE, resource and scope at /authorize (errors go back to the client with state and iss)', () => {
  it.each([
    ['plain PKCE', { code_challenge_method: 'plain' }, 'invalid_request', /S256/],
    ['no challenge method', { code_challenge_method: null }, 'invalid_request', /S256/],
    ['no challenge', { code_challenge: null }, 'invalid_request', /code_challenge is required/],
    ['missing resource', { resource: null }, 'invalid_target', /resource is required/],
    ['wrong resource', { resource: 'https://evil.example/mcp' }, 'invalid_target', /resource must be/],
    ['another scope', { scope: 'svc admin' }, 'invalid_scope', /svc/],
    ['a token response type', { response_type: 'token' }, 'unsupported_response_type', /code/],
  ] as const)('%s', async (_name, over, error, description) => {
    const c = await register(s);
    const r = await startAuthorize(authorizeUrl(s, c.clientId, pkce().challenge, over));
    expect(r.status).toBe(302);
    const p = backParams(r.location);
    expect(p).toMatchObject({ error, state: 'st-1', iss: s.oauthUrl });
    expect(p.error_description).toMatch(description);
    expect(r.res.headers.get('set-cookie')).toBeNull();
  });

  it('an unknown client or an unregistered redirect URI is shown to the person, never redirected', async () => {
    const c = await register(s);
    const cases = [
      authorizeUrl(s, 'cl_nobody', pkce().challenge),
      authorizeUrl(s, c.clientId, pkce().challenge, { redirect_uri: 'https://evil.example/cb' }),
    ];
    for (const url of cases) {
      const page = await fetch(url, { redirect: 'manual', headers: { accept: 'text/html' } });
      expect(page.status).toBe(400);
      expect(page.headers.get('location')).toBeNull();
      expect(await page.text()).toMatch(/This sign-in cannot go on/);
      const json = await fetch(url, { redirect: 'manual' });
      expect(await json.json()).toMatchObject({ error: 'invalid_request' });
    }
  });

  it('a loopback redirect URI matches on any port (RFC 8252), other parts must match exactly', async () => {
    const c = await register(s, 'none', { redirect_uris: ['http://127.0.0.1/cb'] });
    const ok = await startAuthorize(
      authorizeUrl(s, c.clientId, pkce().challenge, { redirect_uri: 'http://127.0.0.1:5555/cb' }),
    );
    expect(ok.location).toMatch(/\/connect\?request=ar_/);
    const bad = await startAuthorize(
      authorizeUrl(s, c.clientId, pkce().challenge, { redirect_uri: 'http://127.0.0.1:5555/other' }),
    );
    expect(bad.status).toBe(400);
  });
});

describe('registration (RFC 7591)', () => {
  it.each([
    [
      'an http redirect to a non-loopback host',
      { redirect_uris: ['http://example.com/cb'] },
      'invalid_redirect_uri',
      /non-loopback/,
    ],
    [
      'a fragment in a redirect',
      { redirect_uris: ['https://app.example/cb#x'] },
      'invalid_redirect_uri',
      /fragment/,
    ],
    ['a javascript: redirect', { redirect_uris: ['javascript:alert(1)'] }, 'invalid_redirect_uri', /scheme/],
    ['no redirect URIs', { redirect_uris: [] }, 'invalid_redirect_uri', /redirect_uris/],
    [
      'an unknown auth method',
      { token_endpoint_auth_method: 'private_key_jwt' },
      'invalid_client_metadata',
      /token_endpoint_auth_method/,
    ],
    ['an implicit response type', { response_types: ['token'] }, 'invalid_client_metadata', /response_types/],
    ['another scope', { scope: 'openid' }, 'invalid_client_metadata', /scope/],
  ] as const)('refuses %s', async (_name, over, error, description) => {
    const r = await postJson(`${s.oauthUrl}/register`, { redirect_uris: [REDIRECT], ...over });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe(error);
    expect(r.body.error_description).toMatch(description);
  });

  it('accepts https, loopback http and an app scheme; answers the RFC 7591 fields', async () => {
    const r = await postJson(`${s.oauthUrl}/register`, {
      client_name: 'Editor',
      redirect_uris: ['https://app.example/cb', 'http://localhost:3000/cb', 'com.example.editor:/oauth'],
      token_endpoint_auth_method: 'client_secret_post',
      client_uri: 'https://app.example',
    });
    expect(r.status).toBe(201);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.body).toMatchObject({
      client_name: 'Editor',
      token_endpoint_auth_method: 'client_secret_post',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      client_secret_expires_at: 0,
      client_uri: 'https://app.example',
    });
    expect(r.body.client_secret).toMatch(/^svc_cs_/);
    const bad = await fetch(`${s.oauthUrl}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{nope',
    });
    expect(await bad.json()).toMatchObject({ error: 'invalid_client_metadata' });
  });
});

describe('the token endpoint', () => {
  it('a wrong verifier is refused and the code still works with the right one', async () => {
    const a = await approvedCode(s);
    const wrong = await trade(s, a, { code_verifier: pkce().verifier });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/code_verifier/),
    });
    expect((await trade(s, a)).status).toBe(200);
  });

  it('missing or wrong resource, wrong redirect_uri and a short verifier are refused', async () => {
    const a = await approvedCode(s);
    expect((await trade(s, a, { resource: 'https://evil.example/mcp' })).body.error).toBe('invalid_target');
    expect((await trade(s, a, { redirect_uri: 'http://127.0.0.1:7777/other' })).body.error).toBe(
      'invalid_grant',
    );
    expect((await trade(s, a, { code_verifier: 'short' })).body.error).toBe('invalid_request');
  });

  it('a reused code is refused and the tokens of its first use die', async () => {
    const a = await approvedCode(s);
    const first = await trade(s, a);
    expect(first.status).toBe(200);
    expect(await s.oauth.resolveAccessToken(first.body.access_token)).not.toBeNull();
    const again = await trade(s, a);
    expect(again.body).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/already used/),
    });
    expect(await s.oauth.resolveAccessToken(first.body.access_token)).toBeNull();
    const auth = createConnectionAuth({ store: s.store, resolveAccessToken: s.oauth.resolveAccessToken });
    const refused = await auth.verify(first.body.access_token).catch((e: unknown) => e);
    expect(isServiceError(refused, 'UNAUTHORIZED')).toBe(true);
    expect((await refresh(s, a.client, first.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('an expired code is refused (codes last one minute)', async () => {
    const a = await approvedCode(s);
    s.advance(61_000);
    try {
      const r = await trade(s, a);
      expect(r.body).toMatchObject({
        error: 'invalid_grant',
        error_description: expect.stringMatching(/expired/),
      });
    } finally {
      s.advance(-61_000);
    }
  });

  it('a replayed refresh token revokes the connection: its newest access and refresh tokens die', async () => {
    const a = await approvedCode(s);
    const t0 = (await trade(s, a)).body;
    const t1 = (await refresh(s, a.client, t0.refresh_token)).body;
    expect(t1.access_token).toMatch(/^svc_at_/);
    const replay = await refresh(s, a.client, t0.refresh_token);
    expect(replay.status).toBe(400);
    expect(replay.body).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/revoked/),
    });
    const auth = createConnectionAuth({ store: s.store, resolveAccessToken: s.oauth.resolveAccessToken });
    expect(isServiceError(await auth.verify(t1.access_token).catch((e: unknown) => e), 'UNAUTHORIZED')).toBe(
      true,
    );
    expect((await refresh(s, a.client, t1.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('a wrong client secret is refused: 401 invalid_client, with a Basic challenge for Basic', async () => {
    for (const method of ['client_secret_post', 'client_secret_basic'] as const) {
      const c = await register(s, method);
      const a = await approvedCode(s, { ...c, secret: 'svc_cs_wrong' });
      const r = await trade(s, a);
      expect(r.status).toBe(401);
      expect(r.body.error).toBe('invalid_client');
      expect(r.headers.get('www-authenticate') !== null).toBe(method === 'client_secret_basic');
      expect((await trade(s, { ...a, client: c })).status).toBe(200);
    }
  });

  it('a confidential client must use the method it registered; a public client sends no secret', async () => {
    const basic = await register(s, 'client_secret_basic');
    const a = await approvedCode(s, basic);
    const asPost = await trade(s, { ...a, client: { ...basic, method: 'client_secret_post' } });
    expect(asPost.body).toMatchObject({
      error: 'invalid_client',
      error_description: expect.stringMatching(/Basic/),
    });
    const pub = await approvedCode(s);
    const withSecret = await trade(s, pub, { client_secret: 'x' });
    expect(withSecret.body.error).toBe('invalid_client');
  });

  it('a code issued to another client is refused', async () => {
    const a = await approvedCode(s);
    const other = await register(s);
    expect((await trade(s, { ...a, client: other })).body).toMatchObject({ error: 'invalid_grant' });
  });

  it('a removed connection stops its tokens at once and cannot refresh', async () => {
    const a = await approvedCode(s);
    const t = (await trade(s, a)).body;
    const auth = createConnectionAuth({ store: s.store, resolveAccessToken: s.oauth.resolveAccessToken });
    const principal = await auth.verify(t.access_token);
    expect(principal.via).toBe('oauth');
    await s.agents.removeConnection(a.userId, principal.connectorId);
    expect(
      isServiceError(await auth.verify(t.access_token).catch((e: unknown) => e), 'CONNECTOR_REVOKED'),
    ).toBe(true);
    expect((await refresh(s, a.client, t.refresh_token)).body).toMatchObject({ error: 'invalid_grant' });
  });

  it('speaks only form posts with one grant type of the two offered', async () => {
    const json = await postJson(`${s.oauthUrl}/token`, { grant_type: 'authorization_code' });
    expect(json.body).toMatchObject({
      error: 'invalid_request',
      error_description: expect.stringMatching(/x-www-form-urlencoded/),
    });
    const c = await register(s);
    const cc = await postForm(`${s.oauthUrl}/token`, {
      grant_type: 'client_credentials',
      ...clientAuth(c).form,
    });
    expect(cc.body.error).toBe('unsupported_grant_type');
    expect((await fetch(`${s.oauthUrl}/token`)).status).toBe(405);
    const both = await postForm(
      `${s.oauthUrl}/token`,
      { grant_type: 'refresh_token', refresh_token: 'x', client_secret: 'y' },
      { authorization: `Basic ${btoa('a:b')}` },
    );
    expect(both.body.error).toBe('invalid_request');
  });

  it('revocation answers 200 for unknown tokens and ignores tokens of another client', async () => {
    const a = await approvedCode(s);
    const t = (await trade(s, a)).body;
    const other = await register(s);
    const r = await postForm(`${s.oauthUrl}/revoke`, { token: t.refresh_token, ...clientAuth(other).form });
    expect(r.status).toBe(200);
    expect(await s.oauth.resolveAccessToken(t.access_token)).not.toBeNull();
    expect(
      (await postForm(`${s.oauthUrl}/revoke`, { token: 'svc_rt_unknown', ...clientAuth(a.client).form }))
        .status,
    ).toBe(200);
  });
});

describe('rate limits', () => {
  it('register, authorize and token each have a bucket per address: 429 temporarily_unavailable with Retry-After', async () => {
    const small = await startAuthServer({
      register: { burst: 2, perMinute: 1 },
      authorize: { burst: 2, perMinute: 1 },
      token: { burst: 2, perMinute: 1 },
    });
    try {
      const c = await register(small);
      await register(small);
      const third = await postJson(`${small.oauthUrl}/register`, { redirect_uris: [REDIRECT] });
      expect(third.status).toBe(429);
      expect(third.body.error).toBe('temporarily_unavailable');
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
      const url = authorizeUrl(small, c.clientId, pkce().challenge);
      expect((await startAuthorize(url)).status).toBe(302);
      expect((await startAuthorize(url)).status).toBe(302);
      expect((await startAuthorize(url)).status).toBe(429);
      const tok = () =>
        postForm(`${small.oauthUrl}/token`, {
          grant_type: 'refresh_token',
          refresh_token: 'x',
          client_id: c.clientId,
        });
      expect((await tok()).status).toBe(400);
      expect((await tok()).status).toBe(400);
      expect((await tok()).status).toBe(429);
    } finally {
      await small.close();
    }
  });
});
