// Issue 46, as a property: random path parameters (malformed escapes like %ff, dots, unicode, long ones)
// on every route with one, with and without a signed-in person, are answered 2xx or 4xx: never a 500.
import http from 'node:http';
import { personRoutes } from '@screen-service/person-api';
import { MOUNTS } from '@screen-service/registry/mounts';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signUp, startTestServer, type TestServer } from './harness.js';

let t: TestServer;
let token: string;

beforeAll(async () => {
  t = await startTestServer();
  token = (await signUp(client(t.base), 'paths@example.com')).access_token;
}, 30_000);
afterAll(() => t.close());

/** Every route with a path parameter: the person's API (from its table) and the OAuth consent endpoints. */
function templates(): { method: string; path: string }[] {
  const person = personRoutes
    .filter((r) => r.path.includes(':'))
    .map((r) => ({ method: r.method.toUpperCase(), path: `${MOUNTS.app}${r.path}` }));
  return [
    ...person,
    { method: 'GET', path: `${MOUNTS.oauth}/requests/:id` },
    { method: 'POST', path: `${MOUNTS.oauth}/requests/:id/code` },
  ];
}

/** A raw request (fetch would normalise or refuse some of these paths before they leave). */
function send(method: string, path: string, auth: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${t.base}${path}`,
      {
        method,
        headers: {
          'content-type': 'application/json',
          ...(auth ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(method === 'GET' || method === 'DELETE' ? undefined : '{}');
  });
}

// A path segment: what a person (or a probe) could type, escaped or not.
const segment = fc.oneof(
  fc.constantFrom(
    '%ff',
    '%',
    '%e0%80',
    '%00',
    '%2f',
    '%2e%2e',
    '..',
    '.',
    '%c0%af',
    '%ZZ',
    'a%ffb',
    '%F0%9F%98%80',
  ),
  fc.string({ minLength: 1, maxLength: 40 }).map(encodeURIComponent),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).map(encodeURIComponent),
  fc.stringMatching(/^[A-Za-z0-9_%-]{1,300}$/),
  fc.constantFrom('agt_00000000000000000000', 'svc_inv_x', 'usr_x', '0', '-1', '1e999'),
);

describe('random path parameters on every route', () => {
  it('are answered 2xx or 4xx, never a 500', async () => {
    const routes = templates();
    expect(routes.length).toBeGreaterThan(15);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.array(segment, { minLength: 3, maxLength: 3 }),
        fc.boolean(),
        async (route, values, auth) => {
          let i = 0;
          const path = route.path.replace(/:[A-Za-z]+/g, () => values[i++]!);
          const status = await send(route.method, path, auth);
          expect(status, `${route.method} ${path}`).toBeGreaterThanOrEqual(200);
          expect(status, `${route.method} ${path}`).toBeLessThan(500);
        },
      ),
      { numRuns: 300 },
    );
  }, 120_000);
});
