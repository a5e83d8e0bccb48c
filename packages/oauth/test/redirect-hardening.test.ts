// Issue 22 items 7 and 12 against the real authorization server over HTTP: no open redirector, the same
// redirect rules at /authorize as at registration, no odd schemes, and names that cannot hide or reverse.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeUrl, pkce, register } from './flow-kit.js';
import { postJson, startAuthorize, startAuthServer, type TestAuthServer } from './harness.js';

let s: TestAuthServer;
beforeAll(async () => {
  s = await startAuthServer({ register: { burst: 100, perMinute: 60 } });
});
afterAll(() => s.close());

describe('redirects', () => {
  it('shows an /authorize error for an https client instead of redirecting to it (RFC 9700 4.11.2)', async () => {
    const c = await register(s, 'none', { redirect_uris: ['https://attacker.example/landing'] });
    const url = authorizeUrl(s, c.clientId, pkce().challenge, {
      redirect_uri: 'https://attacker.example/landing',
      response_type: 'token',
    });
    const page = await fetch(url, { redirect: 'manual', headers: { accept: 'text/html' } });
    expect(page.status).toBe(400);
    expect(page.headers.get('location')).toBeNull();
    expect(await page.text()).toMatch(/This sign-in cannot go on/);
  });

  it('refuses credentials in a loopback redirect at /authorize, as registration does', async () => {
    const c = await register(s, 'none', { redirect_uris: ['http://127.0.0.1/cb'] });
    const r = await startAuthorize(
      authorizeUrl(s, c.clientId, pkce().challenge, { redirect_uri: 'http://user@127.0.0.1:5555/cb' }),
    );
    expect(r.status).toBe(400);
    expect(r.location).toBe('');
  });

  it.each([
    'view-source:https://app.example/cb',
    'chrome://settings/cb',
    'jar:https://app.example/a.jar!/cb',
  ])('refuses the scheme of %s at registration', async (uri) => {
    const r = await postJson(`${s.oauthUrl}/register`, { client_name: 'Odd', redirect_uris: [uri] });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'invalid_redirect_uri' });
  });
});

describe('the consent request', () => {
  it('cannot be cancelled by a bodyless form post (a same-site page), only by JSON', async () => {
    const c = await register(s);
    const started = await startAuthorize(authorizeUrl(s, c.clientId, pkce().challenge));
    const form = await fetch(`${s.oauthUrl}/requests/${started.requestId}/cancel`, {
      method: 'POST',
      headers: { cookie: started.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(400);
    const json = await postJson(
      `${s.oauthUrl}/requests/${started.requestId}/cancel`,
      {},
      { cookie: started.cookie },
    );
    expect(json.status).toBe(200);
  });
});

describe('client names', () => {
  it('strips direction overrides and controls, and refuses a name of nothing visible', async () => {
    const ok = await postJson(`${s.oauthUrl}/register`, {
      client_name: 'Claude\u202e\u0000 Helper\u2066',
      redirect_uris: ['http://127.0.0.1/cb'],
      token_endpoint_auth_method: 'none',
    });
    expect(ok.status).toBe(201);
    expect(ok.body.client_name).toBe('Claude Helper');
    const blank = await postJson(`${s.oauthUrl}/register`, {
      client_name: '\u200b\u3164\u202e ',
      redirect_uris: ['http://127.0.0.1/cb'],
      token_endpoint_auth_method: 'none',
    });
    expect(blank.status).toBe(400);
    expect(blank.body).toMatchObject({ error: 'invalid_client_metadata' });
  });
});
