// The whole sign-in with a strict, spec-following client (oauth4webapi): discovery, registration, PKCE
// authorize, the consent handshake, the code exchange (with `iss` checked), refresh rotation and revocation,
// for a public client and both kinds of confidential client.
import * as o from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finish, seedPerson, startAuthorize, startAuthServer, type TestAuthServer } from './harness.js';

let s: TestAuthServer;
beforeAll(async () => {
  s = await startAuthServer();
});
afterAll(() => s.close());

const insecure = { [o.allowInsecureRequests]: true } as const;
const REDIRECT = 'http://127.0.0.1:7777/callback';

async function discover() {
  const issuer = new URL(s.oauthUrl);
  return o.processDiscoveryResponse(
    issuer,
    await o.discoveryRequest(issuer, { algorithm: 'oidc', ...insecure }),
  );
}

describe.each([
  ['public client (none)', 'none'],
  ['confidential client_secret_post', 'client_secret_post'],
  ['confidential client_secret_basic', 'client_secret_basic'],
] as const)('oauth4webapi, %s', (_label, method) => {
  it('discovers, registers, authorizes with PKCE, is approved, trades the code, refreshes and revokes', async () => {
    const as = await discover();
    expect(as.issuer).toBe(s.oauthUrl);
    expect(as.authorization_response_iss_parameter_supported).toBe(true);
    expect(as.code_challenge_methods_supported).toEqual(['S256']);

    const reg = await o.processDynamicClientRegistrationResponse(
      await o.dynamicClientRegistrationRequest(
        as,
        {
          client_name: `Client ${method}`,
          redirect_uris: [REDIRECT],
          token_endpoint_auth_method: method,
          grant_types: ['authorization_code', 'refresh_token'],
        },
        insecure,
      ),
    );
    expect(typeof reg.client_secret === 'string').toBe(method !== 'none');
    const client: o.Client = { client_id: reg.client_id };
    const auth =
      method === 'none'
        ? o.None()
        : method === 'client_secret_post'
          ? o.ClientSecretPost(reg.client_secret as string)
          : o.ClientSecretBasic(reg.client_secret as string);

    const verifier = o.generateRandomCodeVerifier();
    const state = o.generateRandomState();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      code_challenge: await o.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      resource: s.mcpUrl,
      scope: 'svc',
      state,
    }).toString();
    const started = await startAuthorize(url.href);
    expect(started.status).toBe(302);
    expect(started.location).toBe(`${s.base}/connect?request=${started.requestId}`);
    expect(started.res.headers.get('set-cookie')).toMatch(
      new RegExp(`Path=/functions/v1/svc-oauth/requests/${started.requestId}; .*HttpOnly; SameSite=Lax`),
    );

    const person = await seedPerson(s.store);
    const view = await s.oauth.decide(person.id, started.requestId!, { decision: 'allow' });
    expect(view).toMatchObject({ status: 'approved', agent: { name: `Client ${method}` } });

    const back = await finish(s.oauthUrl, started.requestId!, started.cookie);
    expect(back.status).toBe(302);
    const params = o.validateAuthResponse(as, client, new URL(back.location), state);
    const tokens = await o.processAuthorizationCodeResponse(
      as,
      client,
      await o.authorizationCodeGrantRequest(as, client, auth, params, REDIRECT, verifier, {
        additionalParameters: { resource: s.mcpUrl },
        ...insecure,
      }),
    );
    expect(tokens.access_token).toMatch(/^svc_at_[A-Za-z0-9_-]{43}$/);
    expect(tokens.refresh_token).toMatch(/^svc_rt_[A-Za-z0-9_-]{43}$/);
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.scope).toBe('svc');

    // The approval is a connection of the person that talks as exactly the picked agent.
    const hit = await s.oauth.resolveAccessToken(tokens.access_token);
    const connector = await s.store.connectors.get(hit!.connectorId);
    expect(connector).toMatchObject({
      userId: person.id,
      kind: 'mcp',
      via: 'oauth',
      name: `Client ${method}`,
    });
    expect((await s.store.agents.listByConnector(connector!.id)).map((a) => a.id)).toEqual([view.agent!.id]);

    // Refresh rotates: a new pair, the old refresh token is spent.
    const refreshed = await o.processRefreshTokenResponse(
      as,
      client,
      await o.refreshTokenGrantRequest(as, client, auth, tokens.refresh_token!, insecure),
    );
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await s.oauth.resolveAccessToken(refreshed.access_token))?.connectorId).toBe(connector!.id);

    // Revoking the access token ends only it; revoking the refresh token ends the connection.
    await o.processRevocationResponse(
      await o.revocationRequest(as, client, auth, refreshed.access_token, insecure),
    );
    expect(await s.oauth.resolveAccessToken(refreshed.access_token)).toBeNull();
    expect(await s.oauth.resolveAccessToken(tokens.access_token)).not.toBeNull();
    await o.processRevocationResponse(
      await o.revocationRequest(as, client, auth, refreshed.refresh_token!, insecure),
    );
    expect((await s.store.connectors.get(connector!.id))?.revokedAt).not.toBeNull();
    expect(await s.oauth.resolveAccessToken(tokens.access_token)).toBeNull();
  });
});

describe('discovery documents', () => {
  it('serves protected-resource metadata under the MCP URL and the AS metadata in both places', async () => {
    // oauth4webapi reads RFC 9728's path-inserted location on the host.
    const prm = await o.processResourceDiscoveryResponse(
      new URL(s.mcpUrl),
      await o.resourceDiscoveryRequest(new URL(s.mcpUrl), insecure),
    );
    const under = await (await fetch(`${s.mcpUrl}/.well-known/oauth-protected-resource`)).json();
    expect(under).toEqual(prm);
    expect(prm).toMatchObject({
      resource: s.mcpUrl,
      authorization_servers: [s.oauthUrl],
      scopes_supported: ['svc'],
    });
    for (const p of ['oauth-authorization-server', 'openid-configuration']) {
      for (const root of [s.oauthUrl, s.mcpUrl]) {
        const r = await fetch(`${root}/.well-known/${p}`);
        expect(r.status).toBe(200);
        expect(r.headers.get('access-control-allow-origin')).toBe('*');
        expect(await r.json()).toMatchObject({ issuer: s.oauthUrl, token_endpoint: `${s.oauthUrl}/token` });
      }
    }
  });

  it('serves the AS metadata at the RFC 8414 path-inserted location, where strict clients look first', async () => {
    // oauth4webapi's 'oauth2' discovery inserts `/.well-known/oauth-authorization-server` before the issuer's
    // path; without that route a client makes 404 requests before finding the document.
    const issuer = new URL(s.oauthUrl);
    const request = await o.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure });
    expect(new URL(request.url).pathname).toBe(
      '/.well-known/oauth-authorization-server/functions/v1/svc-oauth',
    );
    const as = await o.processDiscoveryResponse(issuer, request);
    expect(as).toMatchObject({ issuer: s.oauthUrl, authorization_response_iss_parameter_supported: true });
    const oidc = await fetch(`${s.base}/.well-known/openid-configuration/functions/v1/svc-oauth`);
    expect(oidc.status).toBe(200);
    expect(await oidc.json()).toEqual(as);
    // The host's bare root stays unanswered (doc1: the service lives under a path on a shared host).
    expect((await fetch(`${s.base}/.well-known/oauth-authorization-server`)).status).toBe(404);
  });
});
