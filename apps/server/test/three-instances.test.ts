// Three instances on one PostgreSQL database, no sticky sessions (issue 20, ADR 0230): a tap written through
// one instance wakes a svc_answers held on another; two instances racing for answers return each once; an
// OAuth consent page waiting on one sees the approval made on another; the `mcp` bucket is exact across
// instances; a client whose instance dies mid-wait calls again on another and loses nothing.
import { createHash, randomBytes } from 'node:crypto';
import { MOUNTS } from '@screen-service/registry/mounts';
import { createTestDatabase, type TestDatabase } from '@screen-service/store-postgres/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type Deployment,
  deployment,
  type Instance,
  pairedPerson,
  request,
  SHARED_BASE,
  spawnInstance,
  startInstance,
  toolCall,
} from './instances.js';

let db: TestDatabase;
let d: Deployment;
let a: Instance;
let b: Instance;
let c: Instance;
const ports = () => [a.port, b.port, c.port];

beforeAll(async () => {
  db = await createTestDatabase();
  d = deployment(db.url);
  // A 60-call burst that barely refills during the test, so the 61st call's fate is exact.
  const rate = { SVC_MCP_RATE_BURST: '60', SVC_MCP_RATE_PER_MINUTE: '1' };
  // One after another: the first migrates the empty database, the others find it done.
  a = await startInstance(d, 'a', rate);
  b = await startInstance(d, 'b', rate);
  c = await startInstance(d, 'c', rate);
}, 60_000);

afterAll(async () => {
  for (const i of [a, b, c]) await i?.close();
  await db?.drop();
});

const show = async (port: number, token: string) => {
  const r = await toolCall(port, token, 'svc_show', { lines: 'choose@lunch "Lunch?" Pasta|Salad|Soup' });
  expect(r.status).toBe(200);
  expect(r.body.result.isError).toBeFalsy();
  return r.body.result.structuredContent.screen_id as string;
};
const tap = (port: number, p: { token: string; agentId: string }, screenId: string, value: string) =>
  request(port, 'POST', `/agents/${p.agentId}/taps`, {
    token: p.token,
    body: { screen_id: screenId, event: { id: 'lunch', value } },
  });

describe('three instances on one PostgreSQL', () => {
  it('reports the database in /healthz', async () => {
    const r = await request(b.port, 'GET', '/healthz');
    expect(r.status).toBe(200);
    expect(r.body.database).toMatchObject({ ok: true, engine: 'postgresql', listening: true });
    expect(r.body.database.schema_version).toBeGreaterThan(0);
  });

  it('shows via A, taps via the person API on B, and svc_answers waiting on C returns the tap', async () => {
    const p = await pairedPerson(ports(), 'ada@example.com');
    const screenId = await show(a.port, p.connectorToken);
    const started = performance.now();
    const waiting = toolCall(c.port, p.connectorToken, 'svc_answers', { screen_id: screenId, wait: 20 });
    // C holds the wait (its listener is on C's own notifier, fed by C's LISTEN connection).
    await vi.waitFor(() => expect(c.running!.services.notifier.listenerCount(p.userId)).toBe(1));
    const tapped = await tap(b.port, p, screenId, 'Pasta');
    expect(tapped.status).toBe(201);
    const tappedAt = performance.now();
    const answered = await waiting;
    const got = answered.body.result.structuredContent.answers;
    expect(got.map((x: { event: { value: string } }) => x.event.value)).toEqual(['Pasta']);
    // Woken, not timed out: far below the 20 s wait.
    expect(performance.now() - tappedAt).toBeLessThan(2000);
    expect(performance.now() - started).toBeLessThan(10_000);
    // Returned once: asking again on any instance finds nothing.
    const again = await toolCall(a.port, p.connectorToken, 'svc_answers', { screen_id: screenId });
    expect(again.body.result.structuredContent.answers).toEqual([]);
  });

  it('returns each answer once when two instances race to claim them', async () => {
    const p = await pairedPerson(ports(), 'grace@example.com');
    const screenId = await show(b.port, p.connectorToken);
    const values = Array.from({ length: 12 }, (_, i) => `v${i}`);
    const seen: string[] = [];
    const done = () => seen.length >= values.length;
    // Two clients of one connection, one on A and one on C, each looping on svc_answers with a wait.
    const loop = async (port: number) => {
      const until = Date.now() + 15_000;
      while (!done() && Date.now() < until) {
        const r = await toolCall(port, p.connectorToken, 'svc_answers', { screen_id: screenId, wait: 1 });
        for (const x of r.body.result.structuredContent.answers) seen.push(x.event.value);
      }
    };
    const loops = Promise.all([loop(a.port), loop(c.port)]);
    for (const v of values) expect((await tap(b.port, p, screenId, v)).status).toBe(201);
    await loops;
    expect([...seen].sort()).toEqual([...values].sort());
  });

  it('an OAuth consent page waiting on B sees the approval made on C at once', async () => {
    const person = await request(a.port, 'POST', '/auth/signup', {
      body: { email: 'linus@example.com', password: 'correct horse battery' },
    });
    const token: string = person.body.access_token;
    const redirect = 'http://127.0.0.1:7777/cb';
    const reg = await request(a.port, 'POST', `${MOUNTS.oauth}/register`, {
      body: { client_name: 'Across', redirect_uris: [redirect], token_endpoint_auth_method: 'none' },
    });
    expect(reg.status).toBe(201);
    const verifier = randomBytes(32).toString('base64url');
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: reg.body.client_id,
      redirect_uri: redirect,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      resource: `${SHARED_BASE}${MOUNTS.mcp}`,
      scope: 'svc',
      state: 'x',
    });
    const start = await request(a.port, 'GET', `${MOUNTS.oauth}/authorize?${query}`);
    expect(start.status).toBe(302);
    const requestId = new URL(String(start.headers.location)).searchParams.get('request')!;
    const cookie = String(start.headers['set-cookie']?.[0] ?? '').split(';')[0]!;
    // The consent page long-polls on B (the 2 s re-read is the safety net: the answer must come sooner).
    const started = performance.now();
    const page = request(b.port, 'GET', `${MOUNTS.oauth}/requests/${requestId}?wait=20`, {
      headers: { cookie },
    });
    await vi.waitFor(() => expect(b.running!.services.oauth.waitingPages()).toBe(1));
    const decided = await request(c.port, 'POST', `/oauth/requests/${requestId}/decision`, {
      token,
      body: { decision: 'allow' },
    });
    expect(decided.status).toBe(200);
    const seen = await page;
    expect(seen.status).toBe(200);
    expect(seen.body.status).not.toBe('pending');
    // Found by the re-read alone it would come 2 s after the wait began, at the earliest.
    expect(performance.now() - started).toBeLessThan(1900);
  });

  it('refuses the 61st call of a burst whichever instance gets it', async () => {
    const p = await pairedPerson(ports(), 'edsger@example.com');
    const results = await Promise.all(
      Array.from({ length: 61 }, (_, i) => toolCall(ports()[i % 3]!, p.connectorToken, 'svc_threads')),
    );
    const refused = results.filter((r) => r.status === 429);
    expect(results.filter((r) => r.status === 200)).toHaveLength(60);
    expect(refused).toHaveLength(1);
    expect(Number(refused[0]!.headers['retry-after'])).toBeGreaterThan(0);
    // And the next one on any instance is refused too: the bucket is one.
    expect((await toolCall(b.port, p.connectorToken, 'svc_threads')).status).toBe(429);
  });

  it('a client whose instance dies mid-wait calls again on another and loses nothing', async () => {
    const k = await spawnInstance(d, 'k');
    try {
      const p = await pairedPerson(ports(), 'barbara@example.com');
      const screenId = await show(a.port, p.connectorToken);
      const dying = toolCall(k.port, p.connectorToken, 'svc_answers', { screen_id: screenId, wait: 20 });
      // Held open on K (its wait is subscribed) when K is killed: the client sees the connection drop.
      await new Promise((r) => setTimeout(r, 500));
      k.kill();
      await expect(dying).rejects.toThrow();
      // The person taps meanwhile, through A; the client calls again, on B.
      expect((await tap(a.port, p, screenId, 'Soup')).status).toBe(201);
      const retried = await toolCall(b.port, p.connectorToken, 'svc_answers', {
        screen_id: screenId,
        wait: 5,
      });
      const got = retried.body.result.structuredContent.answers;
      expect(got.map((x: { event: { value: string } }) => x.event.value)).toEqual(['Soup']);
    } finally {
      await k.close();
    }
  });
});
