// Issue 22 item 13, as a property: bodies of random nesting depth and size, sent to every JSON endpoint of
// the running server, are answered 4xx: never a 500, never an internal message, never a reset connection.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signUp, startTestServer, type TestServer } from './harness.js';

let t: TestServer;
let endpoints: { path: string; token?: string }[];

beforeAll(async () => {
  t = await startTestServer();
  const call = client(t.base);
  const session = await signUp(call, 'deep@example.com');
  const created = await call('POST', '/agents', { token: session.access_token, body: { name: 'Deep' } });
  const agentId = created.body.agent.id as string;
  const paired = await call('POST', '/functions/v1/svc-connect', {
    body: {
      action: 'pair',
      code: created.body.pairing.code,
      remote_ref: 'deep',
      kind: 'mcp',
      host_name: 'Box',
    },
  });
  const connector = paired.body.connector_token as string;
  const app = '/functions/v1/svc-app';
  endpoints = [
    { path: `${app}/auth/signup` },
    { path: `${app}/auth/signin` },
    { path: `${app}/auth/refresh` },
    { path: `${app}/agents`, token: session.access_token },
    { path: `${app}/agents/${agentId}/messages`, token: session.access_token },
    { path: `${app}/agents/${agentId}/taps`, token: session.access_token },
    { path: '/functions/v1/svc-connect', token: connector },
    { path: '/functions/v1/svc-connect/tables', token: connector },
    { path: '/functions/v1/svc-agents', token: connector },
    { path: '/functions/v1/svc-oauth/register' },
    { path: '/functions/v1/svc-mcp', token: connector },
  ];
}, 30_000);
afterAll(() => t.close());

/** A JSON text nested `depth` levels (arrays or objects), carrying `pad` characters of text. */
function nested(depth: number, kind: 'array' | 'object', pad: number): string {
  const inner = JSON.stringify('x'.repeat(pad));
  return kind === 'array'
    ? `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}${inner}${'}'.repeat(depth)}`;
}

const body = fc.record({
  depth: fc.oneof(fc.integer({ min: 65, max: 200 }), fc.integer({ min: 200, max: 120_000 })),
  kind: fc.constantFrom('array' as const, 'object' as const),
  pad: fc.oneof(fc.integer({ min: 0, max: 2_000 }), fc.integer({ min: 60_000, max: 1_300_000 })),
  // Wrapped in an object with the fields the endpoint reads, or bare.
  wrapped: fc.boolean(),
});

describe('nesting and size on every JSON endpoint', () => {
  it('answers 4xx with a generic message, never 500 or a reset', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...endpoints.keys()), body, async (i, b) => {
        const { path, token } = endpoints[i]!;
        const value = nested(b.depth, b.kind, b.pad);
        const text = b.wrapped
          ? `{"jsonrpc":"2.0","id":1,"method":"tools/call","action":"pair","email":"a@b.co","password":"long enough!","text":"hi","event":{"value":${value}},"lines":${value}}`
          : value;
        // A reset connection makes fetch throw, which fails the property.
        const res = await fetch(`${t.base}${path}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: text,
        });
        const answer = await res.text();
        expect(res.status, `${path} depth ${b.depth} pad ${b.pad}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${path} depth ${b.depth} pad ${b.pad}: ${answer.slice(0, 200)}`).toBeLessThan(
          500,
        );
        expect(answer).not.toMatch(/Maximum call stack|RangeError|at [\w.]+ \(/);
      }),
      { numRuns: 60 },
    );
  }, 120_000);

  it('answers a photo link without its signature 404, not 500', async () => {
    const res = await fetch(`${t.base}/functions/v1/svc-app/photos/pho_nothing`);
    expect(res.status).toBe(404);
    const withExp = await fetch(`${t.base}/functions/v1/svc-app/photos/pho_nothing?exp=1`);
    expect(withExp.status).toBe(404);
  });
});
