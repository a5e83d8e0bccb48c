import { createNotifier } from '@screen-service/registry/kernel';
import { describe, expect, it } from 'vitest';
import { createDecisionWaits } from './decision-waits.js';

const never = async () => true;

describe('createDecisionWaits', () => {
  it('wakes a page waiting on one instance when another sharing the notifier records a decision', async () => {
    const shared = createNotifier(); // stands in for the LISTEN/NOTIFY notifier of several instances
    const onA = createDecisionWaits(shared);
    const onB = createDecisionWaits(shared);
    const started = performance.now();
    const waiting = onB.wait('req_1', 10_000, { stillPending: never, recheckMs: 60_000 });
    expect(onB.size()).toBe(1);
    onA.changed('req_other');
    expect(onB.size()).toBe(1);
    onA.changed('req_1');
    await waiting;
    expect(performance.now() - started).toBeLessThan(1000);
    expect(onB.size()).toBe(0);
    // Nothing stays subscribed once no page waits.
    expect(shared.listenerCount('')).toBe(0);
  });

  it('wakes every waiting page on resync (events may have been lost)', async () => {
    const shared = createNotifier();
    const waits = createDecisionWaits(shared);
    const pages = [
      waits.wait('r1', 10_000, { stillPending: never, recheckMs: 60_000 }),
      waits.wait('r2', 10_000, { stillPending: never, recheckMs: 60_000 }),
    ];
    shared.publish({ type: 'resync', userId: '*' });
    await Promise.all(pages);
    expect(waits.size()).toBe(0);
  });

  it('without a notifier wakes only its own pages', async () => {
    const waits = createDecisionWaits();
    const page = waits.wait('r', 10_000, { stillPending: never, recheckMs: 60_000 });
    waits.changed('r');
    await page;
    expect(waits.size()).toBe(0);
  });
});
