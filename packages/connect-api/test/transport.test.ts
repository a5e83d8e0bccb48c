// The message transport over real HTTP and SQLite: the stream, turns, idempotent answers, cursors, revocation.
import type { ThreadEvent } from '@screen-service/registry/kernel';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pairedHost, poster, type Served, serveConnect } from './serve.js';
import { openStream } from './sse.js';

let s: Served;
let post: ReturnType<typeof poster>;
beforeAll(async () => {
  s = await serveConnect();
  post = poster(s.url);
});
afterAll(() => s.close());

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

describe('a host serves a person through the transport', () => {
  it('receives typed text, a tap and a photo; answers with a screen; gets the tap on it', async () => {
    const h = await pairedHost(s, 'flow@example.com');
    const working: ThreadEvent[] = [];
    const stopWatching = s.core.notifier.subscribe(h.userId, (e) => {
      if (e.type === 'working') working.push(e);
    });
    const stream = await openStream(s.url, h.token);
    expect(stream.status).toBe(200);

    const said = await s.core.threads.say(h.userId, h.agentId, { text: 'hello host' });
    const [first] = await stream.take();
    expect(first).toMatchObject({
      id: String(said.seq),
      event: 'message',
      data: {
        seq: said.seq,
        id: said.id,
        agent: { id: h.agentId, handle: 'main-agent', remote_ref: 'main' },
        session: h.agentId,
        kind: 'text',
        text: 'hello host',
        screen_id: null,
        event: null,
        photos: [],
      },
    });

    // The turn starts: rows delivered, working row on.
    const turn = await post({ agent_id: h.agentId, rows: [said.id] }, h.token, '/messages/turn');
    expect(turn.status).toBe(200);
    expect(turn.body).toMatchObject({ agent_id: h.agentId, rows: [said.id] });
    expect((await s.core.store.threads.getMessage(said.id))!.deliveredAt).not.toBeNull();
    expect((await s.core.store.threads.getMessage(said.id))!.handledAt).toBeNull();
    expect(working.at(-1)).toMatchObject({ type: 'working', agentId: h.agentId, until: expect.any(Number) });

    // The answer: a screen, naming its rows in meta.turn; the rows are handled, the working row goes.
    const reply = {
      agent_id: h.agentId,
      idempotency_key: 'turn-1',
      lines: 'choose@lunch "Lunch?" Pasta|Salad',
      text: 'Pick one',
      turn: [said.id],
    };
    const answered = await post(reply, h.token, '/messages/reply');
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ replayed: false, handled: 1, tap_ids: ['lunch'] });
    const row = await s.core.store.threads.getMessage(answered.body.message_id);
    expect(row).toMatchObject({
      sender: 'agent',
      kind: 'screen',
      meta: { turn: [said.id], text: 'Pick one' },
    });
    expect((await s.core.store.threads.getMessage(said.id))!.handledAt).not.toBeNull();
    expect(working.at(-1)).toMatchObject({ type: 'working', until: null });
    expect(
      (await s.core.store.threads.getState({ agentId: h.agentId, userId: h.userId })).workingUntil,
    ).toBeNull();

    // A resend after a crash writes nothing new.
    const again = await post(reply, h.token, '/messages/reply');
    expect(again.body).toMatchObject({ message_id: answered.body.message_id, replayed: true, handled: 0 });
    const page = await s.core.threads.page(h.userId, h.agentId);
    expect(page.messages.filter((m) => m.sender === 'agent')).toHaveLength(1);

    // The person taps the screen; the host gets the tap line and the event JSON.
    await s.core.threads.tap(h.userId, h.agentId, {
      screen_id: answered.body.screen_id,
      event: { id: 'lunch', value: 'Pasta' },
    });
    const [tap] = await stream.take();
    expect(tap!.data).toMatchObject({
      kind: 'tap',
      screen_id: answered.body.screen_id,
      event: { id: 'lunch', preset: 'choose', value: 'Pasta', screen: answered.body.screen_id },
    });
    expect(tap!.data.text).toMatch(/^\[svc\] lunch choose/);

    // A photo rides as a signed link.
    const photo = await s.core.photos.upload(h.userId, h.agentId, { contentType: 'image/png', bytes: PNG });
    await s.core.threads.say(h.userId, h.agentId, { text: 'look', photo_ids: [photo.id] });
    const [withPhoto] = await stream.take();
    expect(withPhoto!.data.photos).toHaveLength(1);
    expect(withPhoto!.data.photos[0]).toContain(`/photos/${photo.id}?exp=`);
    expect(withPhoto!.data.photos[0]).toContain('sig=');
    stream.close();
    stopWatching();
  });

  it('answers with text, several answers per turn (done:false keeps the working row)', async () => {
    const h = await pairedHost(s, 'text@example.com');
    const m = await s.core.threads.say(h.userId, h.agentId, { text: 'two answers please' });
    await post({ agent_id: h.agentId, rows: [m.id] }, h.token, '/messages/turn');
    const one = await post(
      { agent_id: h.agentId, idempotency_key: 'a.0', text: 'first', turn: [m.id], done: false },
      h.token,
      '/messages/reply',
    );
    expect(one.body).toMatchObject({ replayed: false, handled: 1, screen_id: null });
    const key = { agentId: h.agentId, userId: h.userId };
    expect((await s.core.store.threads.getState(key)).workingUntil).not.toBeNull();
    await post(
      { agent_id: h.agentId, idempotency_key: 'a.1', text: 'second', turn: [m.id] },
      h.token,
      '/messages/reply',
    );
    expect((await s.core.store.threads.getState(key)).workingUntil).toBeNull();
    const answers = (await s.core.threads.page(h.userId, h.agentId)).messages.filter(
      (x) => x.sender === 'agent',
    );
    expect(answers.map((x) => [x.body, x.meta.turn])).toEqual([
      ['first', [m.id]],
      ['second', [m.id]],
    ]);
  });

  it('validates answers like svc_show and svc_say; refusals are data and write nothing', async () => {
    const h = await pairedHost(s, 'invalid@example.com');
    const bad = await post(
      { agent_id: h.agentId, idempotency_key: 'k', lines: 'choose@x "Q?"\nnot a component' },
      h.token,
      '/messages/reply',
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid_lines');
    expect(Array.isArray(bad.body.details)).toBe(true);
    expect(bad.body.details[0]).toHaveProperty('message');
    const cases: [Record<string, unknown>, string][] = [
      [{ idempotency_key: 'k' }, 'invalid_text'],
      [{ idempotency_key: 'k', text: 'x'.repeat(4001) }, 'invalid_text'],
      [{ text: 'no key' }, 'invalid_idempotency_key'],
      [{ idempotency_key: 'has space', text: 'x' }, 'invalid_idempotency_key'],
      [{ idempotency_key: 'k', text: 'x', turn: 'msg_1' }, 'invalid_turn'],
      [{ idempotency_key: 'k', text: 'x', turn: ['msg_not_here'] }, 'invalid_turn'],
      [{ idempotency_key: 'k', text: 'x', done: 'yes' }, 'invalid_done'],
    ];
    for (const [body, error] of cases) {
      const r = await post({ agent_id: h.agentId, ...body }, h.token, '/messages/reply');
      expect([r.status, r.body.error], JSON.stringify(body)).toEqual([400, error]);
    }
    expect(await post({ idempotency_key: 'k', text: 'x' }, h.token, '/messages/reply')).toMatchObject({
      status: 400,
      body: { error: 'invalid_agent_id' },
    });
    expect(await post({ agent_id: h.agentId, rows: [] }, h.token, '/messages/turn')).toMatchObject({
      status: 400,
      body: { error: 'invalid_rows' },
    });
    expect((await s.core.threads.page(h.userId, h.agentId)).messages).toHaveLength(0);
  });

  it('concurrent resends of one key write once', async () => {
    const h = await pairedHost(s, 'race@example.com');
    const body = { agent_id: h.agentId, idempotency_key: 'same', text: 'once' };
    const all = await Promise.all(Array.from({ length: 8 }, () => post(body, h.token, '/messages/reply')));
    expect(new Set(all.map((r) => r.body.message_id)).size).toBe(1);
    expect(all.filter((r) => r.body.replayed === false)).toHaveLength(1);
    expect((await s.core.threads.page(h.userId, h.agentId)).messages).toHaveLength(1);
  });
});

describe('resuming', () => {
  it('a reconnect with Last-Event-ID (or ?after=) loses nothing and repeats nothing', async () => {
    const h = await pairedHost(s, 'resume@example.com');
    const a = await openStream(s.url, h.token);
    const m1 = await s.core.threads.say(h.userId, h.agentId, { text: 'one' });
    const m2 = await s.core.threads.say(h.userId, h.agentId, { text: 'two' });
    const got = await a.take(2);
    expect(got.map((e) => e.data.text)).toEqual(['one', 'two']);
    a.close();
    // While the host is away.
    const m3 = await s.core.threads.say(h.userId, h.agentId, { text: 'three' });
    const m4 = await s.core.threads.say(h.userId, h.agentId, { text: 'four' });
    const b = await openStream(s.url, h.token, { 'last-event-id': String(m2.seq) });
    const resumed = await b.take(2);
    expect(resumed.map((e) => e.data.id)).toEqual([m3.id, m4.id]);
    const m5 = await s.core.threads.say(h.userId, h.agentId, { text: 'five' });
    expect((await b.take(1))[0]!.data.id).toBe(m5.id);
    await new Promise((r) => setTimeout(r, 100));
    expect(b.events).toHaveLength(3);
    b.close();
    // Without a cursor: every row still unhandled, in order.
    const c = await openStream(s.url, h.token);
    expect((await c.take(5)).map((e) => e.data.id)).toEqual([m1.id, m2.id, m3.id, m4.id, m5.id]);
    c.close();
    const d = await openStream(s.url, h.token, {}, `?after=${m4.seq}`);
    expect((await d.take(1))[0]!.data.id).toBe(m5.id);
    d.close();
    // Closed streams leave no subscription behind.
    // (A closed socket reaches the server a moment later; a loaded machine may take seconds.)
    await vi.waitFor(() => expect(s.core.notifier.listenerCount(h.userId)).toBe(0), { timeout: 10_000 });
    expect(await post({ action: 'session' }, h.token)).toMatchObject({ status: 200 });
    const bad = await fetch(`${s.url}/messages?after=abc`, {
      headers: { authorization: `Bearer ${h.token}` },
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: 'invalid_after' });
  });

  it('rows handled elsewhere (an answer) are not replayed; quiet taps never reach the host', async () => {
    const h = await pairedHost(s, 'handled@example.com');
    const m1 = await s.core.threads.say(h.userId, h.agentId, { text: 'answered' });
    await post(
      { agent_id: h.agentId, idempotency_key: 'x', text: 'ok', turn: [m1.id] },
      h.token,
      '/messages/reply',
    );
    const m2 = await s.core.threads.say(h.userId, h.agentId, { text: 'open' });
    const st = await openStream(s.url, h.token);
    expect((await st.take(1))[0]!.data.id).toBe(m2.id);
    await new Promise((r) => setTimeout(r, 100));
    expect(st.events).toHaveLength(1);
    st.close();
  });
});

describe('revocation', () => {
  it('closes the stream within 1 s of the person removing the host, with event revoked', async () => {
    const h = await pairedHost(s, 'close@example.com');
    const st = await openStream(s.url, h.token);
    await new Promise((r) => setTimeout(r, 50));
    const t0 = Date.now();
    await s.core.agents.removeConnection(h.userId, h.connectorId);
    const endedAt = await st.ended;
    expect(endedAt - t0).toBeLessThan(1000);
    expect(st.events.at(-1)).toMatchObject({ event: 'revoked', data: { error: 'connector_revoked' } });
    const again = await fetch(`${s.url}/messages`, { headers: { authorization: `Bearer ${h.token}` } });
    expect(again.status).toBe(409);
    expect(await post({ agent_id: h.agentId, rows: ['m'] }, h.token, '/messages/turn')).toMatchObject({
      status: 409,
      body: { error: 'connector_revoked' },
    });
  });

  it('refuses a stream without a valid token (401) and other methods (405)', async () => {
    expect((await fetch(`${s.url}/messages`)).status).toBe(401);
    expect((await fetch(`${s.url}/messages`, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${s.url}/messages/reply`)).status).toBe(405);
  });
});
