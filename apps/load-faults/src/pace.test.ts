import { expect, it } from 'vitest';
import { createPace } from './pace.js';

it('spends the burst at once, then one call per 60/perMinute seconds', () => {
  let now = 0;
  const pace = createPace({ burst: 3, perMinute: 30, now: () => now });
  expect([pace.delayFor(), pace.delayFor(), pace.delayFor()]).toEqual([0, 0, 0]);
  // Out of tokens: the next call waits 2 s (30 per minute), the one after 4 s (reservations queue).
  expect(pace.delayFor()).toBe(2000);
  expect(pace.delayFor()).toBe(4000);
  now = 10_000;
  // 10 s refilled 5 tokens, 2 of them already reserved: 3 left, capped at the burst.
  expect(pace.delayFor(3)).toBe(0);
  expect(pace.delayFor()).toBe(2000);
});
