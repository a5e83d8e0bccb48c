// The operator's settings through the real server: /readyz, /metrics moving with real MCP calls (official
// SDK client), sign-ups closed while the operator's account creation works, and the per-thread limit.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestServer, type TestServer } from './harness.js';

const TOKEN = 'metrics-token-0123456789';
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ SVC_METRICS_TOKEN: TOKEN, SVC_SIGNUP: 'closed', SVC_MESSAGES_PER_THREAD: '3' });
});
afterAll(() => t.close());

async function scrape() {
  const res = await fetch(`${t.base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  const families = parsePrometheusTextFormat(await res.text());
  return (name: string, labels: Record<string, string> = {}) =>
    Number(
      families
        .find((f) => f.name === name)
        ?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))?.value ?? 0,
    );
}

describe('operating the server', () => {
  it('/readyz checks the database and its schema; /healthz stays', async () => {
    const ready = await fetch(`${t.base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true, database: { ok: true } });
    expect((await fetch(`${t.base}/healthz`)).status).toBe(200);
  });

  it('SVC_SIGNUP=closed: the app cannot sign up, the operator can add an account, which signs in', async () => {
    const call = client(t.base);
    const refused = await call('POST', '/auth/signup', {
      body: { email: 'new@example.com', password: 'correct horse battery' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('signup_closed');
    expect(refused.body.message).toMatch(/svc user add/);
    await t.running.services.accounts.createUser({
      email: 'op@example.com',
      password: 'correct horse battery',
    });
    const signIn = await call('POST', '/auth/signin', {
      body: { email: 'op@example.com', password: 'correct horse battery' },
    });
    expect(signIn.status).toBe(200);
  });

  it('/metrics needs the token and its counters move with MCP tool calls', async () => {
    expect((await fetch(`${t.base}/metrics`)).status).toBe(401);
    const before = await scrape();
    const { connector_token, mcp_url } = await t.running.services.connectAgent({
      email: 'op@example.com',
      agent: 'Metrics bot',
      hostName: 'test',
    });
    const app = new Client({ name: 'metrics-test', version: '1.0.0' });
    await app.connect(
      new StreamableHTTPClientTransport(new URL(mcp_url), {
        requestInit: { headers: { authorization: `Bearer ${connector_token}` } },
      }),
    );
    await app.callTool({ name: 'svc_say', arguments: { text: 'one' } });
    await app.callTool({ name: 'svc_say', arguments: { text: 'two' } });
    await app.callTool({ name: 'svc_answers', arguments: { wait: 0 } });
    await app.close();
    const after = await scrape();
    const say = { tool: 'svc_say', outcome: 'ok' };
    expect(after('svc_tool_calls_total', say) - before('svc_tool_calls_total', say)).toBe(2);
    expect(after('svc_tool_calls_total', { tool: 'svc_answers', outcome: 'ok' })).toBe(1);
    const mcp = { route: '/functions/v1/svc-mcp', status: '200' };
    expect(after('svc_http_requests_total', mcp)).toBeGreaterThan(before('svc_http_requests_total', mcp));
    expect(after('svc_database_bytes')).toBeGreaterThan(0);
    expect(after('svc_answers_waiters')).toBe(0);
  });

  it('SVC_MESSAGES_PER_THREAD: the thread-limit job keeps the newest rows of each thread', async () => {
    const svc = t.running.services;
    const { agent, connector_token } = await svc.connectAgent({
      email: 'op@example.com',
      agent: 'Chatty',
      hostName: 'test',
    });
    const user = (await svc.store.users.findByEmail('op@example.com'))!;
    const principal = await svc.connectionAuth.verify(connector_token);
    for (let i = 0; i < 5; i++) await svc.threadOps.say(principal, { text: `m${i}`, agent: agent.handle });
    const job = svc.housekeepingJobs.find((j) => j.name === 'thread-limit')!;
    expect(await job.run(svc.clock())).toBe(2);
    const page = await svc.threads.page(user.id, agent.id);
    expect(page.messages.map((m: { body?: string; text?: string }) => m.body ?? m.text)).toEqual([
      'm2',
      'm3',
      'm4',
    ]);
  });
});
