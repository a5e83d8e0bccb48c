// Issue 22 item 14: forwarded addresses count only from configured proxies, and every route checks Host.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/index.js';
import { startTestServer, type TestServer } from './harness.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const wrongCode = (forwardedFor: string) =>
  fetch(`${t.base}/functions/v1/svc-connect`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
    body: JSON.stringify({ action: 'pair', code: '000000', remote_ref: 'x', kind: 'mcp', host_name: 'h' }),
  }).then((r) => r.status);

/** A raw request with a Host header of our choosing (fetch keeps Host to the URL's). */
const withHost = (host: string, path: string) =>
  new Promise<number>((resolve, reject) => {
    const req = http.request(`${t.base}${path}`, { headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });

describe('forwarded addresses and Host', () => {
  it('ignores X-Forwarded-For from a caller that is not a configured proxy: rotating it skips no throttle', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push(await wrongCode(`198.51.100.${i + 1}`));
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('refuses a foreign Host on every route but the health probe, pages and APIs alike', async () => {
    for (const path of [
      '/',
      '/connect',
      '/openapi.json',
      '/functions/v1/svc-app/auth/signin',
      '/functions/v1/svc-oauth/authorize',
    ]) {
      expect(await withHost('rebound.attacker.example', path), path).toBe(403);
    }
    expect(await withHost(new URL(t.base).host, '/openapi.json')).toBe(200);
    // Health probes address the machine by its own name; /healthz holds nothing to protect.
    expect(await withHost('10.1.2.3:8787', '/healthz')).toBe(200);
    expect(await withHost('[fd00::7]:8787', '/readyz')).toBe(200);
  });

  it('refuses a rebound DNS name on the probes and /metrics too (issue 46)', async () => {
    for (const path of ['/healthz', '/readyz', '/metrics']) {
      expect(await withHost('rebound.attacker.example', path), path).toBe(403);
    }
    expect(await withHost(new URL(t.base).host, '/healthz')).toBe(200);
  });

  it('reads SVC_TRUST_PROXY and the photo and stream limits', () => {
    const config = loadConfig(
      { SVC_TRUST_PROXY: 'loopback', SVC_PHOTO_MAX_BYTES: '1000', SVC_STREAMS_PER_ACCOUNT: '2' },
      '/',
    );
    expect(config.guards).toEqual({ trustProxy: 'loopback', photoMaxBytes: 1000, streamsPerAccount: 2 });
    expect(() => loadConfig({ SVC_PHOTO_QUOTA_BYTES: 'lots' }, '/')).toThrow(/SVC_PHOTO_QUOTA_BYTES/);
  });
});
