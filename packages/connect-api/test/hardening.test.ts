// Issue 46 on the host API: idempotency keys scoped by connector, agent and thread (a different body under a
// used key is a 409), host message streams capped per connector, and the host message limit per thread.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pairedHost, poster, type Served, serveConnect } from './serve.js';
import { type OpenedStream, openStream } from './sse.js';

let s: Served;
let post: ReturnType<typeof poster>;
beforeAll(async () => {
  s = await serveConnect();
  post = poster(s.url);
});
afterAll(() => s.close());

describe('idempotency keys (item 7)', () => {
  it('scopes a key to its agent: the same key for a second agent writes that agent’s answer', async () => {
    const a = await pairedHost(s, 'idem-scope@example.com', 'first');
    const b = await pairedHost(s, 'idem-scope@example.com', 'second', a.token);
    const one = await post(
      { agent_id: a.agentId, idempotency_key: 'k-1', text: 'to a' },
      a.token,
      '/messages/reply',
    );
    const two = await post(
      { agent_id: b.agentId, idempotency_key: 'k-1', text: 'to b' },
      a.token,
      '/messages/reply',
    );
    expect(one).toMatchObject({ status: 200, body: { replayed: false } });
    expect(two).toMatchObject({ status: 200, body: { replayed: false } });
    expect(two.body.message_id).not.toBe(one.body.message_id);
    const written = await s.core.store.threads.getMessage(two.body.message_id);
    expect(written).toMatchObject({ agentId: b.agentId, body: 'to b' });
  });

  it('refuses a replay whose body differs with 409, and still replays the same body', async () => {
    const h = await pairedHost(s, 'idem-body@example.com');
    const first = { agent_id: h.agentId, idempotency_key: 'same-key', text: 'Deploy done' };
    const wrote = await post(first, h.token, '/messages/reply');
    expect(wrote).toMatchObject({ status: 200, body: { replayed: false } });
    const other = await post({ ...first, text: 'Deploy failed' }, h.token, '/messages/reply');
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ error: 'conflict', field: 'idempotency_key' });
    expect(other.body.message).toMatch(/already used for a different answer/);
    const screen = await post({ ...first, lines: 'confirm@x "Sure?"' }, h.token, '/messages/reply');
    expect(screen.status).toBe(409);
    const again = await post(first, h.token, '/messages/reply');
    expect(again).toMatchObject({ status: 200, body: { replayed: true, message_id: wrote.body.message_id } });
  });
});

describe('host message streams per connector (item 3)', () => {
  it('holds at most 10 streams per connector; the 11th is a 429 with Retry-After until one closes', async () => {
    const h = await pairedHost(s, 'streams@example.com');
    const streams: OpenedStream[] = [];
    try {
      for (let i = 0; i < 10; i++) {
        const st = await openStream(s.url, h.token);
        expect(st.status).toBe(200);
        streams.push(st);
      }
      const over = await fetch(`${s.url}/messages`, { headers: { authorization: `Bearer ${h.token}` } });
      expect(over.status).toBe(429);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(((await over.json()) as { message: string }).message).toMatch(
        /already has 10 message streams open/,
      );
      // Another connector of the same person is not affected.
      const other = await pairedHost(s, 'streams@example.com', 'other');
      const free = await openStream(s.url, other.token);
      expect(free.status).toBe(200);
      free.close();
      streams.shift()!.close();
      await expect
        .poll(async () => {
          const res = await fetch(`${s.url}/messages`, { headers: { authorization: `Bearer ${h.token}` } });
          const status = res.status;
          await res.body?.cancel();
          return status;
        })
        .toBe(200);
    } finally {
      for (const st of streams) st.close();
    }
  });
});

describe('host message limit per thread (item 3, doc1)', () => {
  it('refuses writes past the burst with 429 and Retry-After; other threads still take answers', async () => {
    const h = await pairedHost(s, 'flood@example.com');
    const other = await pairedHost(s, 'flood@example.com', 'quiet', h.token);
    let refused: Awaited<ReturnType<typeof post>> | null = null;
    let written = 0;
    const started = Date.now();
    for (let i = 0; i < 300 && !refused; i++) {
      const r = await post(
        { agent_id: h.agentId, idempotency_key: `f-${i}`, text: `line ${i}` },
        h.token,
        '/messages/reply',
      );
      if (r.status === 200) written++;
      else refused = r;
    }
    // The burst of 60, plus what refilled (one a second) while the loop ran on the running clock.
    const refilled = Math.ceil((Date.now() - started) / 1000);
    expect(written).toBeGreaterThanOrEqual(60);
    expect(written).toBeLessThanOrEqual(60 + refilled);
    expect(refused).toMatchObject({ status: 429, body: { error: 'rate_limited' } });
    expect(refused!.body.message).toMatch(/Too many messages into this thread/);
    const elsewhere = await post(
      { agent_id: other.agentId, idempotency_key: 'q', text: 'fine' },
      h.token,
      '/messages/reply',
    );
    expect(elsewhere.status).toBe(200);
  });
});
