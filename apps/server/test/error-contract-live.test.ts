// Every failure kind of each protocol, driven over real HTTP against the live service, answered in that
// protocol's one shape (ADR 0242): the tool server, the person's API, the host API, the management API, OAuth.
import { gzipSync } from 'node:zlib';
import { MOUNTS } from '@screen-service/registry/mounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectApiError, expectJsonRpcError, expectOAuthError, type Raw, raw } from './error-shapes.js';
import { API, client, signUp, startTestServer, type TestServer } from './harness.js';

const BURST = 4;
let t: TestServer;
let call: ReturnType<typeof client>;
let person: { access_token: string; user: { id: string } };
beforeAll(async () => {
  t = await startTestServer({ SVC_MCP_RATE_BURST: String(BURST), SVC_MCP_RATE_PER_MINUTE: '1' });
  call = client(t.base);
  person = await signUp(call, 'errors@example.com');
});
afterAll(() => t.close());

const json = { 'content-type': 'application/json' };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  raw(
    `${t.base}${path}`,
    'POST',
    { ...json, ...headers },
    typeof body === 'string' ? body : JSON.stringify(body),
  );

/** Pairs a new agent of the person over the host API; returns its connector token. */
async function pair(kind = 'mcp'): Promise<{ token: string; connectorId: string; agentId: string }> {
  const created = await call('POST', '/agents', { token: person.access_token, body: { name: 'E' } });
  const ref = `r${Math.random().toString(36).slice(2, 8)}`;
  const r = await post(MOUNTS.connect, {
    action: 'pair',
    code: created.body.pairing.code,
    remote_ref: ref,
    kind,
    host_name: 'h',
  });
  expect(r.status).toBe(200);
  return { token: r.body.connector_token, connectorId: r.body.connector.id, agentId: created.body.agent.id };
}

describe('the tool server: a JSON-RPC error for every failure', () => {
  const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
  const accept = { accept: 'application/json, text/event-stream' };
  let token: string;
  beforeAll(async () => {
    token = (await pair()).token;
  });
  const mcp = (body: string | Buffer, headers: Record<string, string> = {}, method = 'POST') =>
    raw(`${t.base}${MOUNTS.mcp}`, method, { ...json, ...accept, ...bearer(token), ...headers }, body);

  it('refuses the method, the Host and the credentials', async () => {
    for (const method of ['GET', 'DELETE', 'PUT']) {
      const r = await raw(`${t.base}${MOUNTS.mcp}`, method, accept);
      expectJsonRpcError(r, 405, -32000, 'method_not_allowed');
      expect(r.headers.allow).toBe('POST');
    }
    expectJsonRpcError(await mcp(ping, { host: 'evil.example' }), 403, -32000, 'host_not_allowed');
    const none = await raw(`${t.base}${MOUNTS.mcp}`, 'POST', { ...json, ...accept }, ping);
    expectJsonRpcError(none, 401, -32000, 'unauthorized');
    expect(none.headers['www-authenticate']).toMatch(
      /^Bearer resource_metadata="http:\/\/127\.0\.0\.1:\d+\//,
    );
    const bad = await mcp(ping, bearer('svc_ct_unknown'));
    expectJsonRpcError(bad, 401, -32000, 'unauthorized');
    expect(bad.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token", resource_metadata="/);
    const host = await pair('hostfw');
    expectJsonRpcError(await mcp(ping, bearer(host.token)), 403, -32000, 'not_an_mcp_connector');
  });

  it('refuses what it does not read, and bodies that are not JSON-RPC', async () => {
    expectJsonRpcError(await mcp(ping, { accept: 'text/html' }), 406, -32000, 'not_acceptable');
    const refused: [string | Buffer, Record<string, string>][] = [
      [ping, { 'content-type': 'text/plain' }],
      [ping, { 'content-type': 'application/json; charset=latin1' }],
      [gzipSync(ping), { 'content-encoding': 'gzip' }],
    ];
    for (const [body, headers] of refused) {
      expectJsonRpcError(await mcp(body, headers), 415, -32000, 'unsupported_media_type');
    }
    // An unknown MCP version is the protocol's own error: -32022 with the versions served (MCP 2026-07-28).
    const version = await mcp(ping, { 'mcp-protocol-version': '1999-01-01' });
    expect(version.status).toBe(400);
    expect(version.body).toMatchObject({
      error: {
        code: -32022,
        data: { requested: '1999-01-01', supported: expect.arrayContaining(['2025-11-25']) },
      },
    });
    expectJsonRpcError(await mcp('{not json'), 400, -32700, 'invalid_json');
    expectJsonRpcError(await mcp('"a string"'), 400, -32700, 'invalid_json');
    expectJsonRpcError(await mcp('{"jsonrpc":"1.0","id":1,"method":"ping"}'), 400, -32600, 'invalid_input');
    expectJsonRpcError(await mcp('[]'), 400, -32600, 'invalid_input');
    const deep = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":${'['.repeat(100)}${']'.repeat(100)}}}`;
    expectJsonRpcError(await mcp(deep), 400, -32700, 'invalid_json');
    const huge = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'ping',
      params: { pad: 'x'.repeat(1 << 20) },
    });
    expectJsonRpcError(await mcp(huge), 413, -32600, 'body_too_large');
  });

  it('refuses past the rate limit, a batch past the burst, and a removed connection', async () => {
    const fresh = await pair();
    // Bucket mcp charges tool calls (a ping is free).
    const toolCall = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'svc_threads' },
    });
    const batch = JSON.stringify(Array.from({ length: BURST + 1 }, (_, i) => toolCall(i)));
    expectJsonRpcError(await mcp(batch, bearer(fresh.token)), 429, -32000, 'rate_limited');
    const one = JSON.stringify(toolCall(1));
    for (let i = 0; i < BURST; i++) expect((await mcp(one, bearer(fresh.token))).status).toBe(200);
    const limited = await mcp(one, bearer(fresh.token));
    expectJsonRpcError(limited, 429, -32000, 'rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const removed = await call('DELETE', `/connections/${fresh.connectorId}`, { token: person.access_token });
    expect(removed.status).toBe(204);
    expectJsonRpcError(await mcp(ping, bearer(fresh.token)), 409, -32000, 'connector_revoked');
  });
});

describe("the person's API: {error, message} for every failure", () => {
  const app = (path: string) => `${API}${path}`;
  it('answers through its route table with the security headers: a tap, a wrong method, OPTIONS, no route', async () => {
    const { token: connector, agentId } = await pair();
    const principal = await t.running.services.connectionAuth.verify(connector);
    const shown = await t.running.services.threadOps.show(principal, {
      lines: 'choose@pick "Lunch?" Soup|Pasta',
    });
    const auth = bearer(person.access_token);
    const taps = app(`/agents/${agentId}/taps`);
    const tap = await post(taps, { screen_id: shown.screen_id, event: { id: 'pick', value: 'Soup' } }, auth);
    expect(tap.status).toBe(201);
    expect(tap.body).toMatchObject({ echo: 'Soup' });
    const wrong = await raw(`${t.base}${taps}`, 'GET', auth);
    expectApiError(wrong, 404, 'not_found');
    expect(wrong.body.message).toBe(`No route for GET ${taps}`);
    const answer = await fetch(`${t.base}${taps}`, { method: 'OPTIONS' });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe('POST');
    const options = { headers: Object.fromEntries(answer.headers) };
    expect(options.headers.allow).toBe('POST');
    const nowhere = await post(app(`/agents/${agentId}/nowhere`), {}, auth);
    expectApiError(nowhere, 404, 'not_found');
    const badParam = await post(app('/agents/%E0/taps'), {}, auth);
    expectApiError(badParam, 400, 'invalid_input');
    expect(badParam.body.field).toBe('agentId');
    for (const r of [tap, wrong, options, nowhere, badParam]) {
      expect(r.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(r.headers['x-frame-options']).toBe('DENY');
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['referrer-policy']).toBe('no-referrer');
      expect(r.headers['cross-origin-opener-policy']).toBe('same-origin');
    }
  });

  it('refuses credentials, routes, input, bodies and the Host', async () => {
    const none = await raw(`${t.base}${app('/me')}`, 'GET');
    expectApiError(none, 401, 'unauthorized');
    expect(none.headers['www-authenticate']).toBe('Bearer');
    expectApiError(await raw(`${t.base}${app('/me')}`, 'GET', bearer('nope')), 401, 'unauthorized');
    expectApiError(await raw(`${t.base}${app('/nowhere')}`, 'GET'), 404, 'not_found');
    const malformed = await raw(
      `${t.base}${app('/agents/%E0/messages')}`,
      'GET',
      bearer(person.access_token),
    );
    expectApiError(malformed, 400, 'invalid_input');
    const auth = bearer(person.access_token);
    expectApiError(
      await raw(`${t.base}${app('/agents/agt_nope/messages')}`, 'GET', auth),
      404,
      'agent_not_found',
    );
    const input = await post(app('/agents'), { name: 'x'.repeat(41) }, auth);
    expectApiError(input, 400, 'invalid_input');
    expect(input.body.field).toBe('name');
    expectApiError(await post(app('/auth/signin'), '{nope'), 400, 'invalid_json');
    expectApiError(
      await post(app('/auth/signin'), '{}', { 'content-type': 'text/plain' }),
      415,
      'unsupported_media_type',
    );
    const huge = JSON.stringify({ email: 'x'.repeat(300 * 1024), password: 'p' });
    expectApiError(await post(app('/auth/signin'), huge), 413, 'body_too_large');
    const again = await post(app('/auth/signup'), {
      email: 'errors@example.com',
      password: 'correct horse battery',
    });
    expectApiError(again, 409, 'email_taken');
    expectApiError(await post(app('/auth/signin'), {}, { host: 'evil.example' }), 403, 'host_not_allowed');
  });
});

describe("the host API: {error, message} in doc2's spellings for every failure", () => {
  const connect = (body: unknown, headers: Record<string, string> = {}) =>
    post(MOUNTS.connect, body, headers);
  it('refuses methods, bodies, actions, input, codes and credentials', async () => {
    const get = await raw(`${t.base}${MOUNTS.connect}`, 'GET');
    expectApiError(get, 405, 'method_not_allowed');
    expect(get.headers.allow).toBe('POST');
    expectApiError(await connect([1]), 400, 'invalid_body');
    expectApiError(await connect({ action: 'dance' }), 400, 'invalid_action');
    expectApiError(await connect('{nope'), 400, 'invalid_json');
    expectApiError(await connect('{}', { 'content-type': 'text/plain' }), 415, 'unsupported_media_type');
    expectApiError(await connect({ action: 'pair', pad: 'x'.repeat(70 * 1024) }), 413, 'body_too_large');
    const code = { action: 'pair', code: '12', remote_ref: 'x', kind: 'mcp', host_name: 'h' };
    expectApiError(await connect(code), 400, 'invalid_code');
    const wrong = await connect({ ...code, code: '000000' });
    expectApiError(wrong, 401, 'invalid_or_expired_code');
    expect(wrong.headers['www-authenticate']).toBe('Bearer');
    expectApiError(await connect({ action: 'session' }), 401, 'unauthorized');
    expectApiError(await connect({ action: 'session' }, { host: 'evil.example' }), 403, 'host_not_allowed');
    const stream = await raw(`${t.base}${MOUNTS.connect}/messages`, 'GET');
    expectApiError(stream, 401, 'unauthorized');
    expectApiError(await post(`${MOUNTS.connect}/messages/turn`, '{nope'), 400, 'invalid_json');
    expectApiError(await post(`${MOUNTS.connect}/tables`, {}), 401, 'unauthorized');
  });
});

describe("the management API: {error, message} in doc2's spellings for every failure", () => {
  const agents = (body: unknown, headers: Record<string, string> = {}) => post(MOUNTS.agents, body, headers);
  it('refuses credentials before the body, then bodies, actions and input', async () => {
    const none = await agents('{nope');
    expectApiError(none, 401, 'unauthorized');
    expect(none.headers['www-authenticate']).toBe('Bearer');
    expect(none.headers['cache-control']).toBe('no-store');
    const auth = bearer(person.access_token);
    const get = await raw(`${t.base}${MOUNTS.agents}`, 'GET', auth);
    expectApiError(get, 405, 'method_not_allowed');
    expectApiError(await agents('{nope', auth), 400, 'invalid_json');
    expectApiError(await agents([], auth), 400, 'invalid_body');
    expectApiError(await agents({ action: 'constructor' }, auth), 400, 'invalid_action');
    expectApiError(await agents({ action: 'create', name: '' }, auth), 400, 'invalid_name');
    expectApiError(await agents({ action: 'delete', id: 'agt_nope' }, auth), 404, 'not_found');
    expectApiError(await agents({ action: 'list', pad: 'x'.repeat(70 * 1024) }, auth), 413, 'body_too_large');
    const mt = (await agents({ action: 'token_create', name: 'robot' }, auth)).body.token as string;
    expectApiError(await agents({ action: 'token_list' }, bearer(mt)), 403, 'forbidden');
  });
});

describe('OAuth: RFC 6749 errors for every failure', () => {
  const oauth = (path: string) => `${MOUNTS.oauth}${path}`;
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  it('refuses methods, paths, bodies, clients, grants and the Host', async () => {
    const get = await raw(`${t.base}${oauth('/token')}`, 'GET');
    expectOAuthError(get, 405, 'invalid_request');
    expect(get.headers.allow).toBe('POST, OPTIONS');
    expectOAuthError(await raw(`${t.base}${oauth('/nowhere')}`, 'GET'), 404, 'invalid_request');
    expectOAuthError(await raw(`${t.base}${oauth('/requests/%E0')}`, 'GET'), 400, 'invalid_request');
    expectOAuthError(await post(oauth('/token'), { grant_type: 'x' }), 400, 'invalid_request');
    expectOAuthError(
      await post(oauth('/token'), 'grant_type=authorization_code', form),
      401,
      'invalid_client',
    );
    const basic = await post(oauth('/token'), 'grant_type=authorization_code', {
      ...form,
      authorization: 'Basic !!!',
    });
    expectOAuthError(basic, 401, 'invalid_client');
    expect(basic.headers['www-authenticate']).toMatch(/^Basic realm="svc-oauth"/);
    const client = await post(oauth('/register'), {
      redirect_uris: ['http://127.0.0.1:9/cb'],
      token_endpoint_auth_method: 'none',
    });
    expect(client.status).toBe(201);
    const grant = `grant_type=authorization_code&code=nope&client_id=${client.body.client_id}&code_verifier=${'v'.repeat(43)}&redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fcb`;
    expectOAuthError(await post(oauth('/token'), grant, form), 400, 'invalid_grant');
    expectOAuthError(await post(oauth('/register'), '{nope'), 400, 'invalid_client_metadata');
    const text = await post(oauth('/register'), '{}', { 'content-type': 'text/plain' });
    expectOAuthError(text, 400, 'invalid_client_metadata');
    expectOAuthError(
      await post(oauth('/register'), { pad: 'x'.repeat(40 * 1024) }),
      413,
      'invalid_client_metadata',
    );
    expectOAuthError(
      await post(oauth('/token'), 'a=b', { ...form, host: 'evil.example' }),
      403,
      'access_denied',
    );
  });

  it('answers past its rate limit with temporarily_unavailable and Retry-After', async () => {
    let last: Raw | undefined;
    for (let i = 0; i < 40 && last?.status !== 429; i++) {
      last = await post(oauth('/register'), { redirect_uris: ['http://127.0.0.1:9/cb'] });
    }
    expectOAuthError(last!, 429, 'temporarily_unavailable');
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
  });
});

const CONNECT = MOUNTS.connect;
const MCP = MOUNTS.mcp;

describe('body-parser failures and a removed connection, over the live service', () => {
  const send = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${t.base}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body,
    });

  it('bad JSON is 400 invalid_json on every surface', async () => {
    const person = await send(`${API}/auth/signin`, '{nope');
    expect(person.status).toBe(400);
    expect(await person.json()).toMatchObject({ error: 'invalid_json', field: 'body' });
    const host = await send(CONNECT, '{nope');
    expect(host.status).toBe(400);
    expect(await host.json()).toMatchObject({ error: 'invalid_json' });
    const call = client(t.base);
    const c = await call('POST', '/agents', {
      token: (await signUp(call, 'json@example.com')).access_token,
      body: { name: 'J' },
    });
    const paired = await send(
      CONNECT,
      JSON.stringify({
        action: 'pair',
        code: c.body.pairing.code,
        remote_ref: 'j',
        kind: 'mcp',
        host_name: 'h',
      }),
    );
    const token = ((await paired.json()) as { connector_token: string }).connector_token;
    const mcp = await send(MCP, '{nope', { authorization: `Bearer ${token}` });
    expect(mcp.status).toBe(400);
    expect(await mcp.json()).toMatchObject({ error: { code: -32700, data: { error: 'invalid_json' } } });
  });

  it('too large is 413 body_too_large on every surface', async () => {
    const huge = JSON.stringify({ email: 'x'.repeat(2 * 1024 * 1024), password: 'p' });
    const person = await send(`${API}/auth/signin`, huge);
    expect(person.status).toBe(413);
    expect(await person.json()).toMatchObject({ error: 'body_too_large' });
    const host = await send(CONNECT, huge);
    expect(host.status).toBe(413);
    expect(await host.json()).toMatchObject({ error: 'body_too_large' });
  });

  it('a removed connection answers 409 connector_revoked on the tool server and the host API', async () => {
    const call = client(t.base);
    const person = await signUp(call, 'removed@example.com');
    const created = await call('POST', '/agents', { token: person.access_token, body: { name: 'Gone' } });
    const paired = (await (
      await send(
        CONNECT,
        JSON.stringify({
          action: 'pair',
          code: created.body.pairing.code,
          remote_ref: 'g',
          kind: 'mcp',
          host_name: 'h',
        }),
      )
    ).json()) as { connector_token: string; connector: { id: string } };
    const token = paired.connector_token;
    const removed = await call('DELETE', `/connections/${paired.connector.id}`, {
      token: person.access_token,
    });
    expect(removed.status).toBe(204);

    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const mcp = await send(MCP, ping, { authorization: `Bearer ${token}` });
    expect(mcp.status).toBe(409);
    expect(await mcp.json()).toMatchObject({ error: { data: { error: 'connector_revoked' } } });

    const code = await call('POST', `/agents/${created.body.agent.id}/code`, { token: person.access_token });
    const again = await send(
      CONNECT,
      JSON.stringify({ action: 'pair', code: code.body.code, remote_ref: 'g2', kind: 'mcp', host_name: 'h' }),
      { authorization: `Bearer ${token}` },
    );
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: 'connector_revoked' });
  });
});
