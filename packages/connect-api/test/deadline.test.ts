// A screen's deadline through the host API (ADR 0260) over real HTTP and SQLite: a host's reply takes
// `deadline` beside `lines`, the default lands once at the deadline on the core's clock, reaches the host's
// message stream as the person's answer marked as a default, and a late tap is refused saying why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pairedHost, poster, type Served, serveConnect } from './serve.js';
import { openStream } from './sse.js';

let s: Served;
let post: ReturnType<typeof poster>;
beforeAll(async () => {
  s = await serveConnect();
  post = poster(s.url);
});
afterAll(() => s.close());

const LUNCH = 'choose@lunch "Lunch?" Soup|Salad';

describe('a host reply with a deadline', () => {
  it('decides by default at the deadline, once; the host gets it marked as a default; a late tap is refused', async () => {
    const h = await pairedHost(s, 'deadline@example.com');
    const stream = await openStream(s.url, h.token);
    expect(stream.status).toBe(200);

    // The person asks; the host starts the turn and answers with a screen that has a deadline.
    const asked = await s.core.threads.say(h.userId, h.agentId, { text: 'what for lunch?' });
    expect((await stream.take())[0]!.data).toMatchObject({ id: asked.id, kind: 'text' });
    await post({ agent_id: h.agentId, rows: [asked.id] }, h.token, '/messages/turn');
    const before = s.core.clock();
    const replied = await post(
      {
        agent_id: h.agentId,
        idempotency_key: 'lunch-1',
        lines: LUNCH,
        deadline: { in: '10m', default: { lunch: 'Soup' } },
        turn: [asked.id],
      },
      h.token,
      '/messages/reply',
    );
    const after = s.core.clock();
    expect(replied.status, JSON.stringify(replied.body)).toBe(200);
    expect(replied.body).toMatchObject({
      replayed: false,
      handled: 1,
      tap_ids: ['lunch'],
      // The answer says what the service keeps, as svc_show does.
      deadline: { due: expect.any(String), defaults: [{ id: 'lunch', value: 'Soup' }] },
    });
    const screenId = replied.body.screen_id as string;

    // The key names this answer, deadline included: the same body replays, another deadline is another answer.
    const resend = {
      agent_id: h.agentId,
      idempotency_key: 'lunch-1',
      lines: LUNCH,
      deadline: { in: '10m', default: { lunch: 'Soup' } },
      turn: [asked.id],
    };
    const again = await post(resend, h.token, '/messages/reply');
    expect(again.body).toMatchObject({ replayed: true, message_id: replied.body.message_id });
    expect(again.body.deadline).toEqual(replied.body.deadline);
    for (const deadline of [{ in: '2h', default: { lunch: 'Salad' } }, undefined]) {
      const changed = await post({ ...resend, deadline }, h.token, '/messages/reply');
      expect(changed.status).toBe(409);
      expect(changed.body).toMatchObject({ error: 'conflict', field: 'idempotency_key' });
    }

    // The screen's message carries the plan the phone reads.
    const message = await s.core.store.threads.getMessage(replied.body.message_id);
    expect(message).toMatchObject({
      kind: 'screen',
      screenId,
      meta: { deadline: { due: expect.any(String), defaults: [{ id: 'lunch', value: 'Soup' }] } },
    });
    const due = Date.parse((message!.meta.deadline as { due: string }).due);
    expect(due).toBeGreaterThanOrEqual(before + 10 * 60_000);
    expect(due).toBeLessThanOrEqual(after + 10 * 60_000);

    // Before the deadline nothing is decided; at it, one sweep decides; a second decides nothing (this
    // file's core holds no other deadline, so the sweeps' answers are exact).
    expect(await s.core.deadlines.sweep()).toEqual([]);
    s.core.advance(10 * 60_000);
    const ran = await s.core.deadlines.sweep();
    expect(ran.map((r) => [r.screenId, r.step])).toEqual([[screenId, 'deadline']]);
    expect(await s.core.deadlines.sweep()).toEqual([]);
    expect(await s.core.store.deadlines.get(screenId)).toMatchObject({ outcome: 'default' });

    // The host receives the default as the person's answer on the screen, marked as decided by default.
    const [decided] = await stream.take();
    expect(decided!.data).toMatchObject({
      agent: { id: h.agentId },
      session: h.agentId,
      kind: 'tap',
      screen_id: screenId,
      event: {
        id: 'lunch',
        preset: 'choose',
        value: 'Soup',
        screen: screenId,
        decided_by: 'default',
        step: 'deadline',
      },
    });
    expect(decided!.data.text).toMatch(/^\[svc\] lunch choose/);
    // Landed once: the next row the host gets is the person's next message, not a second default.
    const thanks = await s.core.threads.say(h.userId, h.agentId, { text: 'thanks' });
    expect((await stream.take())[0]!.data).toMatchObject({ id: thanks.id, kind: 'text' });
    expect(stream.events).toHaveLength(3);

    // A tap after the deadline is refused with what happened instead, and writes nothing.
    const late = await s.core.threads
      .tap(h.userId, h.agentId, { screen_id: screenId, event: { id: 'lunch', value: 'Salad' } })
      .then(
        () => null,
        (e: Error & { code?: string; details?: unknown }) => e,
      );
    expect(late).toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/expired at .*: Soup was chosen by default/),
      details: { reason: 'expired', outcome: 'default' },
    });
    const taps = (await s.core.threads.page(h.userId, h.agentId)).messages.filter((m) => m.kind === 'tap');
    expect(taps).toHaveLength(1);
    stream.close();
  });

  it('refuses a deadline it cannot keep with 400 naming the field, and shows nothing', async () => {
    const h = await pairedHost(s, 'deadline-bad@example.com');
    const r = await post(
      {
        agent_id: h.agentId,
        idempotency_key: 'lunch-bad',
        lines: LUNCH,
        deadline: { in: '10m', default: { lunch: 'Pizza' } },
      },
      h.token,
      '/messages/reply',
    );
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      error: 'invalid_deadline_default_lunch',
      field: 'deadline.default.lunch',
    });
    expect(r.body.message).toMatch(/^deadline\.default\.lunch: .*accepts one of: Soup, Salad; got "Pizza"/);
    expect((await s.core.threads.page(h.userId, h.agentId)).messages).toHaveLength(0);
    expect(await s.core.deadlines.sweep()).toEqual([]);
  });
});
