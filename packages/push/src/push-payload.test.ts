// The buzz's time to live (ADR 0258, 0260): an ask with a deadline is kept by the push service only until it.
import type { MessageRecord } from '@screen-service/registry/model';
import { describe, expect, it } from 'vitest';
import { askTtlSeconds } from './push-payload.js';
import { MESSAGE_TTL_SECONDS } from './push-rules.js';

const row = (meta: Record<string, unknown>) => ({ meta }) as unknown as MessageRecord;
const now = Date.parse('2026-11-28T12:00:00Z');

describe('askTtlSeconds', () => {
  it('ends at the deadline of an ask that has one', () => {
    expect(askTtlSeconds(row({ deadline: { due: '2026-11-28T12:01:30Z' } }), now)).toBe(90);
    expect(askTtlSeconds(row({ deadline: { due: '2026-11-28T12:00:00.200Z' } }), now)).toBe(1);
  });
  it('is 0 once the deadline passed, and never longer than a plain buzz', () => {
    expect(askTtlSeconds(row({ deadline: { due: '2026-11-28T11:59:00Z' } }), now)).toBe(0);
    expect(askTtlSeconds(row({ deadline: { due: '2026-12-05T12:00:00Z' } }), now)).toBe(MESSAGE_TTL_SECONDS);
  });
  it('is the plain 12 hours without a deadline', () => {
    expect(askTtlSeconds(row({}), now)).toBe(MESSAGE_TTL_SECONDS);
    expect(askTtlSeconds(row({ deadline: { due: 'soon' } }), now)).toBe(MESSAGE_TTL_SECONDS);
  });
});
