// Transport and auth rules over raw HTTP, and every row of doc1's Errors table that the tool server answers.
import http from 'node:http';
import { runTestSql } from '@screen-service/store-postgres/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { post, type Stack, startStack } from './harness.js';

const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack.close();
});

describe('transport', () => {
  it('answers one message as application/json with no session id', async () => {
    const { token } = await stack.newConnection();
    const r = await post(stack.mcpUrl, ping, auth(token));
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.headers.get('mcp-session-id')).toBeNull();
    expect(r.json).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });

  it('answers a batch with an array in request order; notifications alone get 202', async () => {
    const { token } = await stack.newConnection();
    const r = await post(
      stack.mcpUrl,
      [
        { jsonrpc: '2.0', id: 'b', method: 'tools/list' },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 7, method: 'ping' },
      ],
      auth(token),
    );
    expect(r.status).toBe(200);
    const list = r.json as unknown as { id: unknown; result: Record<string, unknown> }[];
    expect(list.map((m) => m.id)).toEqual(['b', 7]);
    expect(Object.keys(list[0]!.result)).toContain('tools');
    const n = await post(stack.mcpUrl, { jsonrpc: '2.0', method: 'notifications/initialized' }, auth(token));
    expect(n.status).toBe(202);
    expect(n.text).toBe('');
  });

  it('keeps equal request ids of concurrent callers apart', async () => {
    const a = await stack.newConnection('Alpha');
    const b = await stack.newConnection('Beta');
    const call = (token: string) =>
      post(
        stack.mcpUrl,
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'svc_threads' } },
        auth(token),
      );
    const [ra, rb] = await Promise.all([call(a.token), call(b.token)]);
    const handle = (r: typeof ra) =>
      (r.json as { result: { structuredContent: { agents: { handle: string }[] } } }).result.structuredContent
        .agents[0]!.handle;
    expect([handle(ra), handle(rb)]).toEqual([a.agent.handle, b.agent.handle]);
  });

  it('GET and DELETE answer 405 with Allow: POST', async () => {
    for (const method of ['GET', 'DELETE']) {
      const r = await fetch(stack.mcpUrl, { method, headers: { accept: 'text/event-stream' } });
      expect(r.status).toBe(405);
      expect(r.headers.get('allow')).toBe('POST');
      expect(await r.json()).toMatchObject({ error: { data: { error: 'method_not_allowed' } } });
    }
  });

  it('refuses bad bodies, media types and protocol versions with JSON-RPC errors', async () => {
    const { token } = await stack.newConnection();
    const bad = await post(stack.mcpUrl, '{not json', auth(token));
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, data: { error: 'invalid_json' } },
    });
    const invalid = await post(stack.mcpUrl, { jsonrpc: '1.0', id: 1, method: 'ping' }, auth(token));
    expect(invalid.status).toBe(400);
    expect(invalid.json).toMatchObject({
      error: { code: -32600, message: expect.stringContaining('jsonrpc') },
    });
    const empty = await post(stack.mcpUrl, [], auth(token));
    expect(empty.status).toBe(400);
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} };
    const initBatch = await post(stack.mcpUrl, [init, ping], auth(token));
    expect(initBatch.status).toBe(400);
    expect(initBatch.json).toMatchObject({ error: { message: expect.stringContaining('initialize') } });
    const media = await post(stack.mcpUrl, ping, { ...auth(token), 'content-type': 'text/plain' });
    expect(media.status).toBe(415);
    const accept = await post(stack.mcpUrl, ping, { ...auth(token), accept: 'text/html' });
    expect(accept.status).toBe(406);
    // An unknown version: UnsupportedProtocolVersionError naming the versions served, the request's id echoed.
    const version = await post(
      stack.mcpUrl,
      { ...ping, id: 'v1' },
      { ...auth(token), 'mcp-protocol-version': '1999-01-01' },
    );
    expect(version.status).toBe(400);
    expect(version.json).toMatchObject({
      id: 'v1',
      error: {
        code: -32022,
        message: expect.stringContaining('2025-06-18'),
        data: {
          requested: '1999-01-01',
          supported: expect.arrayContaining(['2025-11-25', '2025-06-18', '2025-03-26']),
        },
      },
    });
  });

  it('refuses a Host that is not the service (DNS rebinding) before anything else', async () => {
    const { token } = await stack.newConnection();
    const status = await new Promise<number>((resolve, reject) => {
      const body = JSON.stringify(ping);
      const req = http.request(
        stack.mcpUrl,
        {
          method: 'POST',
          headers: {
            host: 'evil.example.com',
            'content-type': 'application/json',
            accept: 'application/json',
            'content-length': Buffer.byteLength(body),
            ...auth(token),
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(403);
  });
});

describe("doc1's Errors table", () => {
  it('missing or invalid credentials: 401 with WWW-Authenticate naming the resource metadata', async () => {
    const metadata = `${stack.mcpUrl}/.well-known/oauth-protected-resource`;
    const none = await post(stack.mcpUrl, ping);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadata}"`);
    expect(none.json).toMatchObject({ error: { data: { error: 'unauthorized' } } });
    for (const token of ['svc_ct_wrong', 'svc_at_not_yet_known', 'something-else']) {
      const r = await post(stack.mcpUrl, ping, auth(token));
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toContain(`resource_metadata="${metadata}"`);
      expect(r.headers.get('www-authenticate')).toContain('error="invalid_token"');
    }
  });

  it('a connector token of another host kind: 403 not_an_mcp_connector', async () => {
    const user = await stack.newUser();
    const host = await stack.pairAgent(user.id, 'Desk', { kind: 'hostfw' });
    const r = await post(stack.mcpUrl, ping, auth(host.token));
    expect(r.status).toBe(403);
    expect(r.json).toMatchObject({ error: { data: { error: 'not_an_mcp_connector' } } });
  });

  it('a suspended account or connection: 403', async () => {
    const a = await stack.newConnection('Paused');
    await runTestSql(stack.core.testStore, 'UPDATE users SET suspended_at = ? WHERE id = ?', [
      Date.now(),
      a.user.id,
    ]);
    const r1 = await post(stack.mcpUrl, ping, auth(a.token));
    expect(r1.status).toBe(403);
    expect(r1.json).toMatchObject({ error: { data: { error: 'suspended' } } });
    const b = await stack.newConnection('Held');
    await runTestSql(stack.core.testStore, 'UPDATE connectors SET suspended_at = ? WHERE id = ?', [
      Date.now(),
      b.connectorId,
    ]);
    const r2 = await post(stack.mcpUrl, ping, auth(b.token));
    expect(r2.status).toBe(403);
    expect(r2.json).toMatchObject({ error: { data: { error: 'suspended' } } });
  });

  it('removing the connection in the app stops its token at once (409 connector_revoked, as on every surface)', async () => {
    const c = await stack.newConnection('Gone');
    const client = await stack.connect(c.token);
    expect((await client.callTool({ name: 'svc_threads' })).isError).toBeFalsy();
    await stack.agents.removeConnection(c.user.id, c.connectorId);
    const r = await post(stack.mcpUrl, ping, auth(c.token));
    expect(r.status).toBe(409);
    expect(r.json).toMatchObject({ error: { data: { error: 'connector_revoked' } } });
    await expect(client.callTool({ name: 'svc_threads' })).rejects.toThrow(/connector_revoked/);
  });

  it('a waiting svc_answers whose HTTP request closes claims nothing and leaves no listener', async () => {
    const c = await stack.newConnection('Leaver');
    const controller = new AbortController();
    const waiting = fetch(stack.mcpUrl, {
      method: 'POST',
      signal: controller.signal,
      headers: { 'content-type': 'application/json', accept: 'application/json', ...auth(c.token) },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'svc_answers', arguments: { wait: 25 } },
      }),
    }).catch(() => 'aborted');
    await waitFor(() => stack.notifier.listenerCount(c.user.id) === 1);
    controller.abort();
    expect(await waiting).toBe('aborted');
    await waitFor(() => stack.notifier.listenerCount(c.user.id) === 0);
    await stack.threads.say(c.user.id, c.agent.id, { text: 'still here' });
    const r = await post(
      stack.mcpUrl,
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'svc_answers', arguments: {} } },
      auth(c.token),
    );
    const answers = (r.json as { result: { structuredContent: { answers: { text: string }[] } } }).result
      .structuredContent.answers;
    expect(answers.map((a) => a.text)).toEqual(['still here']);
  });
});

describe('rate bucket mcp', () => {
  const call = (id: number) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'svc_threads', arguments: {} },
  });
  const initialize = {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  };
  const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };

  it('429 with Retry-After past the burst of tool calls, per connection, and configurable', async () => {
    const limited = await startStack({ rateLimit: { burst: 3, perMinute: 6 } });
    try {
      const a = await limited.newConnection('Busy');
      const b = await limited.newConnection('Calm');
      for (let i = 0; i < 3; i++)
        expect((await post(limited.mcpUrl, call(i), auth(a.token))).status).toBe(200);
      const over = await post(limited.mcpUrl, call(9), auth(a.token));
      expect(over.status).toBe(429);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(over.headers.get('retry-after'))).toBeLessThanOrEqual(10);
      expect(over.json).toMatchObject({ error: { data: { error: 'rate_limited' } } });
      expect((await post(limited.mcpUrl, call(1), auth(b.token))).status).toBe(200);
      // A batch costs one call per tool call in it.
      const batch = await post(limited.mcpUrl, [call(2), call(3), call(4)], auth(b.token));
      expect(batch.status).toBe(429);
      // On a fresh connection too: a batch larger than the burst is never let through whole.
      const fresh = await limited.newConnection('Fresh');
      const big = await post(limited.mcpUrl, [1, 2, 3, 4].map(call), auth(fresh.token));
      expect(big.status).toBe(429);
      expect(big.json).toMatchObject({
        error: { message: expect.stringMatching(/batch of 4 tool calls .* burst of 3/) },
      });
      expect((await post(limited.mcpUrl, call(5), auth(fresh.token))).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('charges only tool calls: a client that reconnects many times keeps its tool budget', async () => {
    const limited = await startStack({ rateLimit: { burst: 2, perMinute: 1 } });
    try {
      const c = await limited.newConnection('Reconnects');
      // Far more handshakes, notifications, lists and pings than the burst: none is refused.
      for (let i = 0; i < 10; i++) {
        expect((await post(limited.mcpUrl, initialize, auth(c.token))).status).toBe(200);
        expect((await post(limited.mcpUrl, initialized, auth(c.token))).status).toBe(202);
        expect((await post(limited.mcpUrl, { ...ping, id: i }, auth(c.token))).status).toBe(200);
        const list = await post(
          limited.mcpUrl,
          { jsonrpc: '2.0', id: i, method: 'tools/list' },
          auth(c.token),
        );
        expect(list.status).toBe(200);
      }
      // The whole burst is still there for tool calls, and the bucket still ends it.
      expect((await post(limited.mcpUrl, call(1), auth(c.token))).status).toBe(200);
      expect((await post(limited.mcpUrl, call(2), auth(c.token))).status).toBe(200);
      expect((await post(limited.mcpUrl, call(3), auth(c.token))).status).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('answers 413 to a body over the limit instead of resetting the connection', async () => {
    const { token } = await stack.newConnection();
    const res = await fetch(stack.mcpUrl, {
      method: 'POST',
      headers: {
        ...auth(token),
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'x'.repeat(1024 * 1024 + 10)}"}}`,
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: { data: { error: 'body_too_large' } } });
  });

  it('refuses a 100,000-level nested tool argument as a parse error, not a crash', async () => {
    const { token } = await stack.newConnection();
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const res = await fetch(stack.mcpUrl, {
      method: 'POST',
      headers: {
        ...auth(token),
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"svc_tap","arguments":{"screen_id":"s","event":{"value":${deep}}}}}`,
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-32700);
    expect(body.error.message).toMatch(/deeper than 64 levels/);
    expect(body.error.message).not.toMatch(/stack/i);
  });
});

/** Waits on a probe (listener counts), never a fixed time. */
async function waitFor(cond: () => boolean, ms = 3000) {
  await vi.waitFor(() => expect(cond(), 'condition not met in time').toBe(true), {
    timeout: ms,
    interval: 10,
  });
}
