// Two "instances" over one store, each with its own notifier (as on PostgreSQL before an event arrives):
// a row written through one is not announced to the other, and a `resync` on the other makes its waiters
// and streams find it (ADR 0230).

import type { ConnectionPrincipal } from '@screen-service/registry/hosts';
import { createNotifier, memoryLimits } from '@screen-service/registry/kernel';
import type { MessageRecord } from '@screen-service/registry/model';
import { createTestCore, seedConnection, type TestCore } from '@screen-service/test-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HostMessage } from '../host-messages/host-transport.js';
import { waitForAnswers } from './wait-for-answers.js';

let a: TestCore;
let b: TestCore;
let userId: string;
let agentId: string;

beforeEach(async () => {
  a = createTestCore({ clockMode: 'running' });
  b = createTestCore({ clockMode: 'running', testStore: a.testStore });
  userId = (await a.accounts.signUp({ email: 'ada@example.com', password: 'a long password' })).user.id;
});
afterEach(() => {
  b.stopping.abort();
  a.close();
});

describe('resync', () => {
  it('wakes a waiting svc_answers on B for a tap written through A that B was never told of', async () => {
    const c = await seedConnection(a.store, userId, ['main']);
    agentId = c.agents[0]!.id;
    const principal = await b.connectionAuth.verify(c.token);
    const shown = await a.threadOps.show(principal, { lines: 'choose@lunch "Lunch?" Pasta|Salad' });
    const waiting = b.threadOps.answers(principal, { screen_id: shown.screen_id, wait: 10 });
    while (b.notifier.listenerCount(userId) === 0) await new Promise((r) => setImmediate(r));
    await a.threads.tap(userId, agentId, {
      screen_id: shown.screen_id,
      event: { id: 'lunch', value: 'Salad' },
    });
    // B's notifier heard nothing; the wait is still open until told to re-check.
    await new Promise((r) => setTimeout(r, 50));
    const started = performance.now();
    b.notifier.publish({ type: 'resync', userId });
    const got = await waiting;
    expect(got.answers.map((x) => x.event?.value)).toEqual(['Salad']);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('makes an open host stream on B send the rows written through A meanwhile, once', async () => {
    const c = await seedConnection(a.store, userId, ['main'], 'hostfw');
    agentId = c.agents[0]!.id;
    const host: ConnectionPrincipal = await b.hostAuth.verify(c.token);
    const got: HostMessage[] = [];
    const close = await b.hostTransport.open(host, { send: (m) => got.push(m), end: () => {} });
    await a.threads.say(userId, agentId, { text: 'first' });
    await a.threads.say(userId, agentId, { text: 'second' });
    await new Promise((r) => setTimeout(r, 50));
    expect(got).toEqual([]);
    b.notifier.publish({ type: 'resync', userId });
    b.notifier.publish({ type: 'resync', userId });
    await new Promise((r) => setTimeout(r, 100));
    expect(got.map((m) => m.text)).toEqual(['first', 'second']);
    close();
  });

  it("sends every row when their events reach B out of seq order (two instances' NOTIFYs race)", async () => {
    const c = await seedConnection(a.store, userId, ['main', 'side'], 'hostfw');
    const host: ConnectionPrincipal = await b.hostAuth.verify(c.token);
    const written: MessageRecord[] = [];
    a.notifier.subscribe(userId, (e) => {
      if (e.type === 'message') written.push(e.message);
    });
    const got: HostMessage[] = [];
    const close = await b.hostTransport.open(host, { send: (m) => got.push(m), end: () => {} });
    await a.threads.say(userId, c.agents[0]!.id, { text: 'first' });
    await a.threads.say(userId, c.agents[1]!.id, { text: 'second' });
    const [first, second] = written as [MessageRecord, MessageRecord];
    // B hears the later row first: seq n+1 must not move the cursor past seq n unsent.
    b.notifier.publish({ type: 'message', userId, agentId: second.agentId, message: second });
    b.notifier.publish({ type: 'message', userId, agentId: first.agentId, message: first });
    await expect.poll(() => got.map((m) => m.text)).toEqual(['first', 'second']);
    await new Promise((r) => setTimeout(r, 50));
    expect(got).toHaveLength(2);
    close();
  });

  it('waitForAnswers claims again on resync and on `agents` (a removal), and ignores other users', async () => {
    const notifier = createNotifier();
    let claims = 0;
    let ready = false;
    const waiting = waitForAnswers({
      notifier,
      key: { userId: 'u', agentId: 'ag' },
      waitMs: 5000,
      claim: async () => {
        claims++;
        return ready ? [{ id: 'm' } as never] : [];
      },
    });
    await new Promise((r) => setTimeout(r, 10));
    notifier.publish({ type: 'resync', userId: 'other' });
    notifier.publish({ type: 'agents', userId: 'other' });
    await new Promise((r) => setTimeout(r, 10));
    expect(claims).toBe(1);
    // `agents` is what removing a connection publishes: the waiter claims again (and so re-checks the
    // connection) at once instead of at its deadline (issue 46).
    notifier.publish({ type: 'agents', userId: 'u' });
    await new Promise((r) => setTimeout(r, 10));
    expect(claims).toBe(2);
    ready = true;
    notifier.publish({ type: 'resync', userId: 'u' });
    expect(await waiting).toHaveLength(1);
    expect(claims).toBe(3);
  });
});

describe('memoryLimits', () => {
  it('makes the in-process bucket and throttle, deciding synchronously', () => {
    const bucket = memoryLimits.rateLimiter('mcp', { burst: 1, perMinute: 1, now: () => 0 });
    expect(bucket.take('k')).toEqual({ ok: true });
    expect(bucket.take('k')).toEqual({ ok: false, retryAfterS: 60 });
    const throttle = memoryLimits.failureThrottle('sign-in', {
      freeFailures: 0,
      baseDelayMs: 1000,
      maxDelayMs: 1000,
      forgetAfterMs: 60_000,
      now: () => 0,
    });
    throttle.fail('k');
    expect(throttle.check('k')).toEqual({ ok: false, retryAfterS: 1 });
  });
});
