// The tool server's POST answered before Express (ADR 0218) answers exactly as through the app: the same
// security headers, the same Host refusal, one rate limit, one request counter.
import http from 'node:http';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

const METRICS = 'metrics-token-0123456789';
const BURST = 6;
let t: TestServer;
let token: string;
let lane: string;
// The same route through Express: a query string (or any method but POST) is not the lane's exact match.
let viaApp: string;

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
  lane = `${t.base}/functions/v1/svc-mcp`;
  viaApp = `${lane}?via=app`;
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

describe('the MCP lane', () => {
  it('answers a call and a refusal exactly as the app does, with the security headers', async () => {
    const auth = { authorization: `Bearer ${token}` };
    const a = await post(lane, ping(1), auth);
    const b = await post(viaApp, ping(1), auth);
    expect(a.status).toBe(200);
    expect(JSON.parse(a.body)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect(a.body).toBe(b.body);
    expect(stable(a.headers)).toEqual(stable(b.headers));
    expect(a.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(a.headers['x-powered-by']).toBeUndefined();
    // No credentials: 401 with the metadata pointer, either way.
    const c = await post(lane, ping(2));
    const d = await post(viaApp, ping(2));
    expect(c.status).toBe(401);
    expect(c.body).toBe(d.body);
    expect(stable(c.headers)).toEqual(stable(d.headers));
  });

  it('refuses a foreign Host with the service-wide 403 before reading credentials', async () => {
    const evil = { host: 'evil.example', authorization: `Bearer ${token}` };
    const a = await post(lane, ping(3), evil);
    const b = await post(viaApp, ping(3), evil);
    expect(a.status).toBe(403);
    expect(JSON.parse(a.body).error).toBe('host_not_allowed');
    expect(a.body).toBe(b.body);
    expect(a.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
  });

  it('counts its requests under the MCP route and shares one rate limit with the app path', async () => {
    const before = await scrape();
    const other = await t.running.services.connectAgent({
      email: 'lane@example.com',
      agent: 'Lane two',
      hostName: 'y',
    });
    const auth = { authorization: `Bearer ${other.connector_token}` };
    const statuses: number[] = [];
    // Half of the burst through each path, then one more through each: both are refused.
    for (let i = 0; i < BURST / 2; i++) {
      statuses.push((await post(lane, ping(i), auth)).status);
      statuses.push((await post(viaApp, ping(i), auth)).status);
    }
    expect(statuses).toEqual(Array(BURST).fill(200));
    const lanePast = await post(lane, ping(98), auth);
    const appPast = await post(viaApp, ping(99), auth);
    expect([lanePast.status, appPast.status]).toEqual([429, 429]);
    expect(lanePast.headers['retry-after']).toBeDefined();
    const after = await scrape();
    const ok = { method: 'POST', route: '/functions/v1/svc-mcp', status: '200' };
    const limited = { ...ok, status: '429' };
    expect(after(ok) - before(ok)).toBe(BURST);
    expect(after(limited) - before(limited)).toBe(2);
  });

  it('leaves every other method and path to the app', async () => {
    const get = await fetch(lane);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await fetch(`${lane}/nothing-here`, { method: 'POST' })).status).toBe(404);
  });
});
