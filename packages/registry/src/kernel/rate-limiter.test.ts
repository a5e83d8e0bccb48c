import { describe, expect, it } from 'vitest';
import { createRateLimiter } from './rate-limiter.js';

const MCP_RATE_DEFAULTS = { burst: 60, perMinute: 30 };

describe('createRateLimiter', () => {
  it('allows the burst, then refuses with Retry-After until the sustained rate refills', () => {
    let t = 0;
    const limiter = createRateLimiter({ ...MCP_RATE_DEFAULTS, now: () => t });
    for (let i = 0; i < 60; i++) expect(limiter.take('c1')).toEqual({ ok: true });
    expect(limiter.take('c1')).toEqual({ ok: false, retryAfterS: 2 }); // 30/min = one every 2 s
    expect(limiter.take('c2')).toEqual({ ok: true }); // buckets are per connection
    t = 2000;
    expect(limiter.take('c1')).toEqual({ ok: true });
    expect(limiter.take('c1').ok).toBe(false);
    t = 2000 + 60_000;
    for (let i = 0; i < 30; i++) expect(limiter.take('c1').ok).toBe(true);
    expect(limiter.take('c1').ok).toBe(false);
  });

  it('charges the whole cost of a batch: one larger than the burst never passes, even from a full bucket', () => {
    let t = 0;
    const limiter = createRateLimiter({ burst: 5, perMinute: 60, now: () => t });
    expect(limiter.take('c', 4).ok).toBe(true);
    expect(limiter.take('c', 4)).toEqual({ ok: false, retryAfterS: 3 });
    t = 60_000;
    expect(limiter.take('c', 100).ok).toBe(false);
    // The refused batch took nothing: the full bucket still holds its burst.
    expect(limiter.take('c', 5).ok).toBe(true);
  });

  it('refuses nonsense settings', () => {
    expect(() => createRateLimiter({ burst: 0, perMinute: 30 })).toThrow(/burst/);
    expect(() => createRateLimiter({ burst: 60, perMinute: 0 })).toThrow(/perMinute/);
  });
});
