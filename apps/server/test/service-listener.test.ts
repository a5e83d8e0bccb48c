// The service's one request listener (ADR 0242): every request takes the same steps once (security headers,
// the request counter), the tool server's path goes to its handler whatever the method or query, its
// refusals are JSON-RPC errors (a foreign Host included), and everything else goes to the Express app.
import http from 'node:http';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

const METRICS = 'metrics-token-0123456789';
const BURST = 6;
let t: TestServer;
let token: string;
let mcp: string;
// The same endpoint with a query string and with a trailing slash: the same handler, not a second path.
let withQuery: string;
let withSlash: string;

beforeAll(async () => {
  t = await startTestServer({
    SVC_METRICS_TOKEN: METRICS,
    SVC_MCP_RATE_BURST: String(BURST),
    SVC_MCP_RATE_PER_MINUTE: '1',
  });
  await t.running.services.accounts.createUser({
    email: 'lane@example.com',
    password: 'correct horse battery',
  });
  const paired = await t.running.services.connectAgent({
    email: 'lane@example.com',
    agent: 'Lane',
    hostName: 'x',
  });
  token = paired.connector_token;
  mcp = `${t.base}/functions/v1/svc-mcp`;
  withQuery = `${mcp}?via=app`;
  withSlash = `${mcp}/`;
});
afterAll(() => t.close());

/** A raw request (fetch cannot set Host). */
function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const payload = JSON.stringify(body);
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      const req = http.request(
        url,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'content-length': String(Buffer.byteLength(payload)),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks).toString(),
            }),
          );
        },
      );
      req.on('error', reject);
      req.end(payload);
    },
  );
}

const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });
// Bucket mcp charges tool calls only (a ping is free).
const toolCall = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'svc_threads', arguments: {} },
});
/** The headers an answer carries, without the ones that differ per answer. */
const stable = (h: http.IncomingHttpHeaders) => {
  const { date, etag, 'content-length': _, ...rest } = h;
  return rest;
};

async function scrape() {
  const res = await fetch(`${t.base}/metrics`, { headers: { authorization: `Bearer ${METRICS}` } });
  const families = parsePrometheusTextFormat(await res.text());
  return (labels: Record<string, string>) =>
    Number(
      families
        .find((f) => f.name === 'svc_http_requests_total')
        ?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))?.value ?? 0,
    );
}

describe('the one listener', () => {
  it('answers the tool server the same on every spelling of its path, with the security headers', async () => {
    const auth = { authorization: `Bearer ${token}` };
    const a = await post(mcp, ping(1), auth);
    expect(a.status).toBe(200);
    expect(JSON.parse(a.body)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    for (const other of [withQuery, withSlash]) {
      const b = await post(other, ping(1), auth);
      expect(b.body).toBe(a.body);
      expect(stable(b.headers)).toEqual(stable(a.headers));
    }
    expect(a.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(a.headers['x-powered-by']).toBeUndefined();
    // No credentials: 401 with the metadata pointer and a JSON-RPC body.
    const c = await post(mcp, ping(2));
    expect(c.status).toBe(401);
    expect(c.headers['www-authenticate']).toMatch(/^Bearer resource_metadata="/);
    expect(JSON.parse(c.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
    expect(c.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
  });

  it("refuses a foreign Host before reading credentials, in each path's own error shape", async () => {
    const evil = { host: 'evil.example', authorization: `Bearer ${token}` };
    const a = await post(mcp, ping(3), evil);
    expect(a.status).toBe(403);
    expect(JSON.parse(a.body)).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, data: { error: 'host_not_allowed' } },
    });
    expect(a.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    const app = await post(`${t.base}/functions/v1/svc-app/auth/signin`, {}, evil);
    expect(app.status).toBe(403);
    expect(JSON.parse(app.body)).toMatchObject({ error: 'host_not_allowed', message: expect.any(String) });
    const oauth = await post(`${t.base}/functions/v1/svc-oauth/register`, {}, evil);
    expect(oauth.status).toBe(403);
    expect(JSON.parse(oauth.body)).toEqual({ error: 'access_denied', error_description: expect.any(String) });
  });

  it('counts every request once, under its route, and keeps one rate limit', async () => {
    const before = await scrape();
    const other = await t.running.services.connectAgent({
      email: 'lane@example.com',
      agent: 'Lane two',
      hostName: 'y',
    });
    const auth = { authorization: `Bearer ${other.connector_token}` };
    const statuses: number[] = [];
    // Half of the burst on each spelling of the path, then one more on each: both are refused.
    for (let i = 0; i < BURST / 2; i++) {
      statuses.push((await post(mcp, toolCall(i), auth)).status);
      statuses.push((await post(withQuery, toolCall(i), auth)).status);
    }
    expect(statuses).toEqual(Array(BURST).fill(200));
    const past = await post(mcp, toolCall(98), auth);
    const pastToo = await post(withQuery, toolCall(99), auth);
    expect([past.status, pastToo.status]).toEqual([429, 429]);
    expect(past.headers['retry-after']).toBeDefined();
    expect(JSON.parse(past.body)).toMatchObject({ error: { data: { error: 'rate_limited' } } });
    // An Express route is counted once too (a step applied twice would count it twice).
    expect((await fetch(`${t.base}/openapi.json`)).status).toBe(200);
    const after = await scrape();
    const ok = { method: 'POST', route: '/functions/v1/svc-mcp', status: '200' };
    const limited = { ...ok, status: '429' };
    expect(after(ok) - before(ok)).toBe(BURST);
    expect(after(limited) - before(limited)).toBe(2);
    const openapi = { method: 'GET', route: '/openapi.json', status: '200' };
    expect(after(openapi) - before(openapi)).toBe(1);
  });

  it('gives the tool server every method on its path, and the app every other path', async () => {
    const get = await fetch(mcp);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(await get.json()).toMatchObject({ error: { data: { error: 'method_not_allowed' } } });
    const deeper = await fetch(`${mcp}/nothing-here`, { method: 'POST' });
    expect(deeper.status).toBe(404);
    expect(await deeper.json()).toMatchObject({ error: 'not_found' });
    const health = await fetch(`${t.base}/healthz`);
    expect(health.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
  });
});
