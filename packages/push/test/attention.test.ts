// The person's attention end to end (issue 39): core writes → outbox → sender → a push service on 127.0.0.1.
// No buzz while the person is in the app on any device; quiet hours in the account's time zone hold asks to
// their end (an urgent ask breaks through only when allowed); an agent's buzzes that ask nothing are kept to
// its budget and gathered into the next; urgency by kind. Time is the test clock's.
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
let phone: TestSubscriber;

beforeEach(async () => {
  // 23:30 in Berlin (UTC+1 in November).
  core = createTestCore({
    seed: 5,
    clockStart: Date.parse('2026-11-28T22:30:00Z'),
    vapidPublicKey: keys.publicKey,
    pushEndpoints: { allowLoopback: true },
  });
  ps = await startTestPushService();
  const user = await seedUser(core.store);
  userId = user.id;
  await core.store.users.setTimeZone(userId, 'Europe/Berlin', 'pin');
  const conn = await seedConnection(core.store, user.id, ['ada', 'bob']);
  principal = await core.connectionAuth.verify(conn.token);
  phone = ps.subscriber();
  await core.push.subscribe(userId, { endpoint: phone.endpoint, keys: phone.keys, device: 'phone' });
});
afterEach(async () => {
  await ps.close();
  core.close();
});

const bodies = () =>
  ps.received.filter((r) => r.subscriber === phone.id).map((r) => (r.payload as { body: string }).body);

describe('attention', () => {
  it('no buzz while the person is in the app on any device; buzzes again once it lapses or leaves', async () => {
    const sender = core.createPushSender(transport);
    await core.push.setActive(userId, true, 'laptop');
    await core.threadOps.show(principal, { lines: 'confirm "Deploy?"' });
    expect(await sender.tick()).toMatchObject({ sent: 0, suppressed: 1 });
    await core.push.setActive(userId, false, 'laptop');
    await core.threadOps.show(principal, { lines: 'confirm "Deploy now?"', agent: 'bob' });
    await sender.tick();
    expect(bodies()).toEqual(['Deploy now?']);
    await core.push.setActive(userId, true, 'laptop');
    core.advance(2 * 60_000 + 1); // the laptop went to sleep without saying so
    await core.threadOps.say(principal, { text: 'Still there?' });
    await sender.tick();
    expect(bodies()).toEqual(['Deploy now?', 'Still there?']);
  });

  it('quiet hours hold an ask to their end in the account time zone; an allowed urgent ask breaks through', async () => {
    const sender = core.createPushSender(transport);
    expect(
      await core.push.saveSettings(userId, {
        quiet_hours: { start: '22:00', end: '07:00' },
        allow_urgent: true,
      }),
    ).toEqual({ quiet_hours: { start: '22:00', end: '07:00' }, allow_urgent: true, plain_per_hour: 1 });
    await core.threadOps.show(principal, { lines: 'confirm "Merge it?"' });
    expect(await sender.tick()).toMatchObject({ sent: 0, deferred: 1 });
    // 07:00 in Berlin is 06:00Z.
    expect(await core.store.push.nextDueAt()).toBe(Date.parse('2026-11-29T06:00:00Z'));
    await core.threadOps.show(principal, {
      lines: 'confirm "Prod is down: roll back?"',
      urgent: true,
      agent: 'bob',
    });
    await sender.tick();
    expect(bodies()).toEqual(['Prod is down: roll back?']);
    // Not allowed: an urgent ask waits like any other.
    await core.push.saveSettings(userId, {
      quiet_hours: { start: '22:00', end: '07:00' },
      allow_urgent: false,
    });
    await core.threadOps.show(principal, {
      lines: 'confirm "Still down: page someone?"',
      urgent: true,
      agent: 'bob',
    });
    core.advance(10_000);
    await sender.tick();
    expect(bodies()).toEqual(['Prod is down: roll back?']);
    core.advance(Date.parse('2026-11-29T06:00:00Z') - core.clock());
    await sender.tick();
    expect(bodies().sort()).toEqual(['Merge it?', 'Prod is down: roll back?', 'Still down: page someone?']);
  });

  it("an agent's buzzes that ask nothing: one per hour, the rest gathered into the next; asks go at once", async () => {
    core.advance(10 * 3600_000); // 09:30 in Berlin
    const sender = core.createPushSender(transport);
    await core.threadOps.say(principal, { text: 'Build started' });
    await sender.tick();
    core.advance(60_000);
    await core.threadOps.say(principal, { text: 'Tests running' });
    await core.threadOps.say(principal, { text: 'Tests passed' });
    expect(await sender.tick()).toMatchObject({ sent: 0, deferred: 2 });
    // Another agent has its own budget; an ask is never held by it.
    await core.threadOps.say(principal, { text: 'Hello from bob', agent: 'bob' });
    core.advance(10_000);
    await core.threadOps.show(principal, { lines: 'choose "Ship which?" A|B' });
    await sender.tick();
    expect(bodies()).toEqual(['Build started', 'Hello from bob', 'Ship which?']);
    // The held lines are older than the ask the phone now shows: they never cover it.
    core.advance(3600_000);
    expect(await sender.tick()).toMatchObject({ sent: 0, suppressed: 2 });
    await core.threadOps.say(principal, { text: 'Deployed' });
    await sender.tick();
    expect(bodies().at(-1)).toBe('Deployed');
    // Every one: 0 lifts the budget.
    await core.push.saveSettings(userId, { plain_per_hour: 0 });
    await core.threadOps.say(principal, { text: 'One' });
    core.advance(6_000);
    await sender.tick();
    await core.threadOps.say(principal, { text: 'Two' });
    core.advance(6_000);
    await sender.tick();
    expect(bodies().slice(-2)).toEqual(['One', 'Two']);
  });

  it('urgency by kind: an ask is high, a chat line normal', async () => {
    core.advance(10 * 3600_000);
    const sender = core.createPushSender(transport);
    await core.threadOps.show(principal, { lines: 'confirm "Now?"' });
    await core.threadOps.say(principal, { text: 'fyi', agent: 'bob' });
    await sender.tick();
    const urgency = Object.fromEntries(
      ps.received.map((r) => [(r.payload as { body: string }).body, r.headers.urgency]),
    );
    expect(urgency).toEqual({ 'Now?': 'high', fyi: 'normal' });
  });

  it("a deadline's urgent step is the time-sensitive buzz near the end; its reminder is not (ADR 0306)", async () => {
    const sender = core.createPushSender(transport);
    await core.push.saveSettings(userId, {
      quiet_hours: { start: '22:00', end: '07:00' },
      allow_urgent: true,
    });
    const payloads = (kind = 'message') =>
      ps.received
        .filter((r) => r.subscriber === phone.id)
        .map((r) => r.payload as { kind: string; body: string; urgent?: boolean })
        .filter((p) => p.kind === kind);
    await core.threadOps.show(principal, {
      lines: 'choose@lunch "Lunch?" Soup|Salad',
      deadline: {
        in: '20m',
        default: { lunch: 'Soup' },
        escalate: [
          { at: '50%', do: 'remind' },
          { at: '-2m', do: 'urgent' },
        ],
      },
    });
    // 23:30 in Berlin: the ask and its reminder wait for the end of quiet hours.
    expect(await sender.tick()).toMatchObject({ sent: 0, deferred: 1 });
    core.advance(10 * 60_000);
    expect((await core.deadlines.sweep()).map((r) => r.step)).toEqual(['remind']);
    await sender.tick();
    expect(payloads()).toEqual([]);
    // Two minutes before the end: the urgent step breaks through (allowed), saying how long is left.
    core.advance(8 * 60_000);
    expect((await core.deadlines.sweep()).map((r) => r.step)).toEqual(['urgent']);
    await sender.tick();
    expect(payloads()).toHaveLength(1);
    expect(payloads()[0]).toMatchObject({ body: '2 min left: Lunch?', urgent: true });
    // Not allowed: the urgent step waits like the rest, and nothing breaks through before the default lands.
    await core.push.saveSettings(userId, {
      quiet_hours: { start: '22:00', end: '07:00' },
      allow_urgent: false,
    });
    await core.threadOps.show(principal, {
      lines: 'confirm "Deploy?"',
      agent: 'bob',
      deadline: { in: '10m', escalate: [{ at: '-1m', do: 'urgent' }] },
    });
    core.advance(9 * 60_000);
    // Lunch's deadline landed its default meanwhile: its urgent notification is replaced quietly.
    expect((await core.deadlines.sweep()).map((r) => r.step)).toEqual(['deadline', 'urgent']);
    await sender.tick();
    expect(payloads()).toHaveLength(1);
    expect(payloads('stale')).toMatchObject([{ body: expect.stringMatching(/Soup/) }]);
  });

  it('refuses settings it cannot follow, naming the field', async () => {
    await expect(
      core.push.saveSettings(userId, { quiet_hours: { start: '25:00', end: '07:00' } }),
    ).rejects.toThrow(/quiet_hours.start must be a time like "22:00"/);
    await expect(core.push.saveSettings(userId, { plain_per_hour: -1 })).rejects.toThrow(/plain_per_hour/);
    await expect(core.push.setActive(userId, 'yes', 'phone')).rejects.toThrow(/active must be true or false/);
  });
});
