// Sign-in without registration: a client_id that is the URL of a Client ID Metadata Document, served here by
// the test on 127.0.0.1 (loopback is allowed only by the test setting), and the documents that are refused.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as o from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientMetadataDocuments } from '../src/client-metadata-document.js';
import { finish, seedPerson, startAuthorize, startAuthServer, type TestAuthServer } from './harness.js';

const insecure = { [o.allowInsecureRequests]: true } as const;
const REDIRECT = 'http://127.0.0.1:7777/callback';

let s: TestAuthServer;
let docs: http.Server;
let docBase = '';
const fetches: string[] = [];
const releaseSlow: (() => void)[] = [];
/** The name /renamed.json gives now, and how far the documents' cache clock is moved on. */
let renamedName = 'First Name';
let cacheClockAhead = 0;

/** What the document server answers per path (client_id is filled in with the document's own URL). */
function documentFor(
  path: string,
  self: string,
): { status?: number; body: string; headers?: Record<string, string> } | 'slow' {
  const doc = (extra: Record<string, unknown> = {}) =>
    JSON.stringify({ client_id: self, client_name: 'Doc Client', redirect_uris: [REDIRECT], ...extra });
  switch (path) {
    case '/client.json':
      return {
        body: doc({ client_uri: 'https://doc.example/' }),
        headers: { 'cache-control': 'max-age=60' },
      };
    case '/renamed.json':
      return { body: doc({ client_name: renamedName }), headers: { 'cache-control': 'max-age=60' } };
    case '/no-cache.json':
      return { body: doc(), headers: { 'cache-control': 'no-store' } };
    case '/wrong-redirect.json':
      return { body: doc({ redirect_uris: ['http://127.0.0.1:9999/elsewhere'] }) };
    case '/other-id.json':
      return {
        body: JSON.stringify({ client_id: 'https://app.example/client.json', redirect_uris: [REDIRECT] }),
      };
    case '/secret.json':
      return { body: doc({ client_secret: 'shh' }) };
    case '/big.json':
      return { body: doc({ client_uri: `https://doc.example/${'x'.repeat(6 * 1024)}` }) };
    case '/redirects.json':
      return { status: 302, body: '', headers: { location: `${docBase}/client.json` } };
    case '/slow.json':
      return 'slow';
    default:
      return { status: 404, body: '{}' };
  }
}

beforeAll(async () => {
  docs = http.createServer((req, res) => {
    fetches.push(req.url ?? '');
    const answer = documentFor(req.url ?? '', `${docBase}${req.url}`);
    if (req.url === '/big-chunked.json') {
      // No Content-Length: the size limit holds while the body streams in.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`{"client_id":"${docBase}${req.url}","pad":"${'x'.repeat(4000)}`);
      res.end(`${'x'.repeat(4000)}"}`);
      return;
    }
    if (answer === 'slow') {
      releaseSlow.push(() => res.end());
      return;
    }
    res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
    res.end(answer.body);
  });
  await new Promise<void>((r) => docs.listen(0, '127.0.0.1', r));
  docBase = `http://127.0.0.1:${(docs.address() as AddressInfo).port}`;
  s = await startAuthServer(undefined, {
    clientMetadataDocuments: {
      allowLoopback: true,
      timeoutMs: 500,
      now: () => Date.now() + cacheClockAhead,
      // private.test resolves to a private address: refused before any connection is made.
      resolve: async (host) => (host === 'private.test' ? [{ address: '10.0.0.1', family: 4 }] : []),
    },
  });
});
afterAll(async () => {
  for (const release of releaseSlow) release();
  docs.closeAllConnections();
  await new Promise((r) => docs.close(r));
  await s.close();
});

async function authorizeUrl(
  clientId: string,
  redirectUri = REDIRECT,
  verifier = o.generateRandomCodeVerifier(),
) {
  const url = new URL(`${s.oauthUrl}/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: await o.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    resource: s.mcpUrl,
    scope: 'svc',
    state: 'st',
  }).toString();
  return url.href;
}

describe('client ID metadata documents', () => {
  it('advertises support, signs a document client in with PKCE, names it with its host, and checks iss', async () => {
    const issuer = new URL(s.oauthUrl);
    const as = await o.processDiscoveryResponse(
      issuer,
      await o.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
    );
    expect(as).toMatchObject({
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
    });

    const clientId = `${docBase}/client.json`;
    const client: o.Client = { client_id: clientId };
    const verifier = o.generateRandomCodeVerifier();
    const started = await startAuthorize(await authorizeUrl(clientId, REDIRECT, verifier));
    expect(started.status).toBe(302);
    const view = await s.oauth.pageView(started.requestId!, started.cookie.split('=')[1]);
    expect(view.client).toMatchObject({
      name: 'Doc Client',
      host: new URL(docBase).host,
      uri: 'https://doc.example/',
    });

    const person = await seedPerson(s.store);
    await s.oauth.decide(person.id, started.requestId!, { decision: 'allow' });
    const back = await finish(s.oauthUrl, started.requestId!, started.cookie);
    // oauth4webapi refuses an authorization response without the right iss.
    const params = o.validateAuthResponse(as, client, new URL(back.location), 'st');
    const tokens = await o.processAuthorizationCodeResponse(
      as,
      client,
      await o.authorizationCodeGrantRequest(as, client, o.None(), params, REDIRECT, verifier, {
        additionalParameters: { resource: s.mcpUrl },
        ...insecure,
      }),
    );
    expect(tokens.access_token).toMatch(/^svc_at_/);
    const hit = await s.oauth.resolveAccessToken(tokens.access_token);
    expect(await s.store.connectors.get(hit!.connectorId)).toMatchObject({
      via: 'oauth',
      name: 'Doc Client',
    });
    // Cached for its max-age: a second sign-in does not fetch the document again.
    const before = fetches.filter((f) => f === '/client.json').length;
    expect((await startAuthorize(await authorizeUrl(clientId))).status).toBe(302);
    expect(fetches.filter((f) => f === '/client.json').length).toBe(before);
  });

  it("a renamed document: the client's row keeps the cached name until the document is fetched again, then takes the new one", async () => {
    const clientId = `${docBase}/renamed.json`;
    const consentName = async () => {
      const started = await startAuthorize(await authorizeUrl(clientId));
      expect(started.status).toBe(302);
      return (await s.oauth.pageView(started.requestId!, started.cookie.split('=')[1])).client.name;
    };
    expect(await consentName()).toBe('First Name');
    renamedName = 'Second Name';
    // Within the document's max-age the cached document (and so the row) stands.
    expect(await consentName()).toBe('First Name');
    expect((await s.store.oauth.getClient(clientId))?.name).toBe('First Name');
    cacheClockAhead = 61_000;
    try {
      expect(await consentName()).toBe('Second Name');
      expect((await s.store.oauth.getClient(clientId))?.name).toBe('Second Name');
    } finally {
      cacheClockAhead = 0;
    }
  });

  it('fetches a no-store document every time', async () => {
    const clientId = `${docBase}/no-cache.json`;
    for (let i = 0; i < 2; i++) expect((await startAuthorize(await authorizeUrl(clientId))).status).toBe(302);
    expect(fetches.filter((f) => f === '/no-cache.json')).toHaveLength(2);
  });

  it.each([
    [
      'a redirect URI the document does not list',
      '/wrong-redirect.json',
      /redirect_uri .* is not registered/,
    ],
    ['a document naming another client_id', '/other-id.json', /client_id .* is not its own URL/],
    ['a document with a client secret', '/secret.json', /must not carry a client secret/],
    ['a document over the size limit', '/big.json', /more than 5120/],
    ['a streamed document over the size limit', '/big-chunked.json', /more than 5120 bytes/],
    ['a document that does not arrive in time', '/slow.json', /did not arrive within 500 ms/],
    ['a redirect instead of the document', '/redirects.json', /HTTP 302, not 200/],
    ['no document at that address', '/missing.json', /HTTP 404/],
  ])('refuses %s, shown to the person and never redirected', async (_label, path, message) => {
    const started = await startAuthorize(await authorizeUrl(`${docBase}${path}`));
    expect(started.status).toBe(400);
    expect(started.location).toBe('');
    expect(await started.res.text()).toMatch(message);
  });

  it('refuses a document on a private address without connecting to it', async () => {
    const started = await startAuthorize(await authorizeUrl('https://private.test/client.json'));
    expect(started.status).toBe(400);
    expect(await started.res.text()).toMatch(/10\.0\.0\.1, a private address: only public addresses/);
  });

  it('without the test setting, loopback and plain http documents are refused', async () => {
    const strict = createClientMetadataDocuments();
    await expect(strict.resolve(`${docBase}/client.json`)).rejects.toThrow(/must be served over https/);
    await expect(strict.resolve('https://localhost/client.json')).rejects.toThrow(/loopback address/);
    await expect(strict.resolve('https://app.example/')).rejects.toThrow(/must have a path/);
  });
});
