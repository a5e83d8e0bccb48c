// The buzz rules end to end: core writes → outbox → sender → web-push → a push service on 127.0.0.1 that
// decrypts each push. Time is the test clock's, so collapse windows and back-off are exact.
import type { ConnectionPrincipal } from '@screen-service/registry/hosts';
import { createTestCore, seedConnection, seedUser, type TestCore } from '@screen-service/test-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWebPushTransport, generateVapidKeys } from '../src/index.js';
import { startTestPushService, type TestPushService, type TestSubscriber } from '../src/testing.js';

const keys = generateVapidKeys();
const transport = createWebPushTransport({
  vapid: { ...keys, subject: 'mailto:ops@example.com' },
  allowLoopback: true,
});

let core: TestCore;
let ps: TestPushService;
let principal: ConnectionPrincipal;
let userId: string;
let agentIds: string[];
let phone: TestSubscriber;
let laptop: TestSubscriber;

beforeEach(async () => {
  core = createTestCore({
    seed: 7,
    clockStart: Date.parse('2026-11-23T12:00:00Z'),
    vapidPublicKey: keys.publicKey,
    pushEndpoints: { allowLoopback: true },
  });
  ps = await startTestPushService();
  const user = await seedUser(core.store);
  userId = user.id;
  const conn = await seedConnection(core.store, user.id, ['ada', 'bob']);
  agentIds = conn.agents.map((a) => a.id);
  principal = await core.connectionAuth.verify(conn.token);
  phone = ps.subscriber();
  laptop = ps.subscriber();
  await core.push.subscribe(userId, { endpoint: phone.endpoint, keys: phone.keys, device: 'phone' });
  await core.push.subscribe(userId, { endpoint: laptop.endpoint, keys: laptop.keys, device: 'laptop' });
});
afterEach(async () => {
  await ps.close();
  core.close();
});

const payloads = (sub: TestSubscriber) =>
  ps.received
    .filter((r) => r.subscriber === sub.id && r.status < 300)
    .map((r) => r.payload as Record<string, unknown>);

describe('when to buzz', () => {
  it('a screen buzzes every device with the agent name, the screen title, the thread tag and link', async () => {
    const sender = core.createPushSender(transport);
    const shown = await core.threadOps.show(principal, { lines: 'choose@l "Lunch today?" Pasta|Salad' });
    const report = await sender.tick();
    expect(report).toMatchObject({ sent: 2, gone: 0, retried: 0, dropped: 0 });
    for (const sub of [phone, laptop]) {
      expect(payloads(sub)).toEqual([
        {
          kind: 'message',
          agent_id: agentIds[0],
          title: 'ada',
          body: 'Lunch today?',
          tag: `thread-${agentIds[0]}`,
          url: `${core.urls.baseUrl}/#/a/${agentIds[0]}?screen=${shown.screen_id}`,
          count: 1,
          message_id: shown.message_id,
          screen_id: shown.screen_id,
          // A one-tap screen (issue 39): its options as actions, and a token for this device only.
          actions: [
            { action: 'a0', title: 'Pasta', value: 'Pasta' },
            { action: 'a1', title: 'Salad', value: 'Salad' },
          ],
          answer: {
            url: `${core.urls.appUrl}/push/answer`,
            token: expect.stringMatching(/^svc_nt_[A-Za-z0-9_-]{43}$/),
            expires_at: new Date(core.clock() + 43_200_000).toISOString(),
          },
        },
      ]);
    }
    expect(payloads(phone)[0]!.answer).not.toEqual(payloads(laptop)[0]!.answer);
    const push = ps.received[0]!;
    expect(push.headers).toMatchObject({ urgency: 'high', ttl: '43200', contentEncoding: 'aes128gcm' });
    expect(push.headers.topic).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
    expect(ps.rejected).toEqual([]);
    expect((await core.store.threads.listPushIntents(userId))[0]!.sentAt).toBe(core.clock());
    expect(await core.store.push.due(core.clock() + 1e9, 10)).toEqual([]);
  });

  it('a chat line buzzes with its first line; the screen chat line wins over the screen title', async () => {
    const sender = core.createPushSender(transport);
    await core.threadOps.say(principal, { text: '\n  Build finished.\nAll 120 tests pass.' });
    await core.threadOps.show(principal, { lines: 'timer 5m Tea', text: 'Steep it', agent: 'bob' });
    await sender.tick();
    expect(payloads(phone).map((p) => [p.title, p.body])).toEqual([
      ['ada', 'Build finished.'],
      ['bob', 'Steep it'],
    ]);
  });

  it('no buzz while the thread is open on any device; the presence lapses when not renewed', async () => {
    const sender = core.createPushSender(transport);
    await core.threads.setPresence(userId, agentIds[0]!, true, 'tablet');
    await core.threadOps.say(principal, { text: 'seen on the tablet' });
    await core.threadOps.say(principal, { text: 'other thread', agent: 'bob' });
    await sender.tick();
    // The person is in the app on the tablet: no thread buzzes anywhere meanwhile (issue 39).
    expect(payloads(phone)).toEqual([]);
    // Another device closing does not close the tablet's.
    await core.threads.setPresence(userId, agentIds[0]!, false, 'phone');
    await core.threadOps.say(principal, { text: 'still open on the tablet' });
    await sender.tick();
    expect(payloads(phone)).toEqual([]);
    // The tablet died without closing: after the presence lapses, buzzes resume.
    core.advance(2 * 60_000 + 1);
    await core.threadOps.say(principal, { text: 'tablet gone' });
    await sender.tick();
    expect(payloads(phone).map((p) => p.body)).toEqual(['tablet gone']);
  });

  it('a thread opened after the write but before the send does not buzz', async () => {
    const sender = core.createPushSender(transport);
    await core.threadOps.say(principal, { text: 'quick' });
    await core.threads.setPresence(userId, agentIds[0]!, true, 'phone');
    expect(await sender.tick()).toMatchObject({ sent: 0, suppressed: 2 });
    expect(ps.received).toEqual([]);
  });

  it('a muted agent never buzzes; unmuting buzzes again', async () => {
    const sender = core.createPushSender(transport);
    await core.agents.update(userId, agentIds[0]!, { push_muted: true });
    await core.threadOps.show(principal, { lines: 'timer 1m muted' });
    await sender.tick();
    expect(ps.received).toEqual([]);
    expect(await core.store.threads.listPushIntents(userId)).toEqual([]);
    await core.agents.update(userId, agentIds[0]!, { push_muted: false });
    await core.threadOps.say(principal, { text: 'loud' });
    await sender.tick();
    expect(payloads(phone).map((p) => p.body)).toEqual(['loud']);
  });

  it('a burst of 10 screens in two threads is one push per thread per device, counted', async () => {
    const sender = core.createPushSender(transport);
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        core.threadOps.show(principal, {
          lines: `timer ${i + 1}m step ${i + 1}`,
          agent: i % 2 ? 'bob' : 'ada',
        }),
      ),
    );
    await sender.tick();
    expect(payloads(phone).map((p) => [p.tag, p.count])).toEqual(
      expect.arrayContaining([
        [`thread-${agentIds[0]}`, 5],
        [`thread-${agentIds[1]}`, 5],
      ]),
    );
    expect(payloads(phone)).toHaveLength(2);
    expect(payloads(laptop)).toHaveLength(2);
    expect(String(payloads(phone)[0]!.body)).toMatch(/^step \d+ \(\+4 more\)$/);
  });

  it('rows after a buzz wait out the collapse window and go as one update with the same tag', async () => {
    const sender = core.createPushSender(transport, { collapseWindowMs: 5000 });
    // Every line may buzz (no per-agent budget): this is about the collapse window alone.
    await core.push.saveSettings(userId, { plain_per_hour: 0 });
    await core.threadOps.say(principal, { text: 'first' });
    await sender.tick();
    for (const t of ['second', 'third', 'fourth']) {
      core.advance(500);
      await core.threadOps.say(principal, { text: t });
      expect(await sender.tick()).toMatchObject({ sent: 0, deferred: 2 });
    }
    core.advance(3500);
    expect(await sender.tick()).toMatchObject({ sent: 2 });
    expect(payloads(phone).map((p) => [p.body, p.tag])).toEqual([
      ['first', `thread-${agentIds[0]}`],
      ['fourth (+2 more)', `thread-${agentIds[0]}`],
    ]);
  });
});

describe('what the push service answers', () => {
  it('410 removes the subscription and its queued pushes; 404 too', async () => {
    const sender = core.createPushSender(transport);
    ps.script(phone.id, [{ status: 410 }]);
    ps.script(laptop.id, [{ status: 404 }]);
    await core.threadOps.say(principal, { text: 'hello?' });
    expect(await sender.tick()).toMatchObject({ gone: 2, sent: 0 });
    expect(await core.store.push.listSubscriptions(userId)).toEqual([]);
    expect((await core.push.status(userId)).subscriptions).toEqual([]);
    await core.threadOps.say(principal, { text: 'nobody listens' });
    expect(await core.store.push.due(core.clock() + 1e9, 10)).toEqual([]);
  });

  it('503 is retried after Retry-After, 429 with exponential back-off, then sent once', async () => {
    const sender = core.createPushSender(transport);
    ps.script(phone.id, [{ status: 503, retryAfter: '30' }, { status: 429 }]);
    await core.threadOps.say(principal, { text: 'patience' });
    expect(await sender.tick()).toMatchObject({ sent: 1, retried: 1 });
    core.advance(29_000);
    expect(await sender.tick()).toMatchObject({ sent: 0, retried: 0 });
    core.advance(1_000);
    expect(await sender.tick()).toMatchObject({ retried: 1 });
    const [row] = await core.store.push.due(core.clock() + 1e9, 10);
    expect(row!.row.attempts).toBe(2);
    // Second failure without Retry-After: 2 s (+ up to 20% jitter).
    expect(row!.row.nextAt - core.clock()).toBeGreaterThanOrEqual(2000);
    expect(row!.row.nextAt - core.clock()).toBeLessThanOrEqual(2400);
    core.advance(2400);
    expect(await sender.tick()).toMatchObject({ sent: 1 });
    expect(payloads(phone).map((p) => p.body)).toEqual(['patience']);
    expect(ps.received.filter((r) => r.subscriber === phone.id).map((r) => r.status)).toEqual([
      503, 429, 201,
    ]);
  });

  it('the silent revoked push carries no content, low urgency and no tag', async () => {
    const sender = core.createPushSender(transport);
    expect(await core.push.revoked(userId, agentIds[1]!)).toBe(2);
    await sender.tick();
    expect(payloads(phone)).toEqual([{ kind: 'revoked', agent_id: agentIds[1] }]);
    expect(ps.received[0]!.headers).toMatchObject({ urgency: 'low', topic: null });
  });
});

describe('the sender loop', () => {
  it('wakes on the write: the push leaves without waiting for the poll', async () => {
    const sender = core.createPushSender(transport, { pollMs: 60_000 });
    sender.start();
    const t0 = performance.now();
    await core.threadOps.say(principal, { text: 'now' });
    const [push] = await ps.waitFor(1, 3000);
    expect(push!.at - t0).toBeLessThan(1000);
    await sender.stop();
  });
});

describe('subscriptions', () => {
  it('refuses malformed subscriptions with the field named', async () => {
    const bad = async (input: Record<string, unknown>) => {
      try {
        await core.push.subscribe(userId, { endpoint: phone.endpoint, keys: phone.keys, ...input });
      } catch (e) {
        return (e as { field?: string }).field;
      }
      return 'accepted';
    };
    expect(await bad({ endpoint: 'http://push.example/x' })).toBe('endpoint');
    expect(await bad({ keys: { p256dh: 'abc', auth: phone.keys.auth } })).toBe('keys.p256dh');
    expect(await bad({ keys: { p256dh: phone.keys.p256dh, auth: 'short' } })).toBe('keys.auth');
    expect(await bad({ device: 'has space' })).toBe('device');
    expect(await core.push.unsubscribe(userId, phone.endpoint)).toBe(true);
    expect(await core.push.unsubscribe(userId, phone.endpoint)).toBe(false);
    expect(
      (await core.push.status(userId)).subscriptions.map((s: { device: string | null }) => s.device),
    ).toEqual(['laptop']);
  });

  it('accepts only https endpoints outside the test setting, never a literal inside address (issue 46)', async () => {
    const strict = createTestCore({ vapidPublicKey: keys.publicKey });
    try {
      const user = await seedUser(strict.store);
      const refusal = async (endpoint: string) =>
        strict.push.subscribe(user.id, { endpoint, keys: phone.keys }).then(
          () => 'accepted',
          (e: { code: string; message: string }) => `${e.code}: ${e.message}`,
        );
      expect(await refusal(phone.endpoint)).toMatch(/^INVALID_INPUT: endpoint must be the https URL/);
      expect(await refusal('https://127.0.0.1:6443/x')).toMatch(/not a loopback address/);
      expect(await refusal('https://169.254.169.254/latest')).toMatch(/not a link-local address/);
      expect(await refusal('https://10.1.2.3/x')).toMatch(/not a private address/);
      expect(await refusal('https://[::ffff:127.0.0.1]/x')).toMatch(/not a loopback address/);
      expect(await refusal('https://localhost:6443/x')).toMatch(/not a loopback address/);
      expect(await refusal('https://u:p@fcm.googleapis.com/x')).toMatch(/must be the https URL/);
      expect(await refusal('https://fcm.googleapis.com/fcm/send/abc')).toBe('accepted');
    } finally {
      strict.close();
    }
  });

  it('caps subscriptions per device (the oldest is replaced) and per account (refused) (issue 46)', async () => {
    const endpoint = (i: number) => `https://fcm.googleapis.com/fcm/send/cap-${i}`;
    for (let i = 0; i < 3; i++) {
      await core.push.subscribe(userId, { endpoint: endpoint(i), keys: phone.keys, device: 'tablet' });
    }
    const tablet = (await core.push.status(userId)).subscriptions.filter((s) => s.device === 'tablet');
    expect(tablet).toHaveLength(2);
    // 2 from beforeEach + 2 tablet = 4; fill the account to 20 with other devices.
    for (let i = 0; i < 16; i++) {
      await core.push.subscribe(userId, { endpoint: endpoint(100 + i), keys: phone.keys, device: `d${i}` });
    }
    expect((await core.push.status(userId)).subscriptions).toHaveLength(20);
    const over = await core.push
      .subscribe(userId, { endpoint: endpoint(999), keys: phone.keys, device: 'one-more' })
      .catch((e: { code: string; message: string }) => e);
    expect(over).toMatchObject({ code: 'LIMIT_EXCEEDED' });
    expect((over as { message: string }).message).toMatch(/turn notifications off on one in Settings/);
    // Registering a known endpoint again is not a new subscription.
    await core.push.subscribe(userId, { endpoint: endpoint(100), keys: phone.keys, device: 'd0' });
  });
});
