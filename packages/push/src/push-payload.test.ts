// The buzz's time to live (ADR 0258, 0260): an ask with a deadline is kept by the push service only until it.
import type { MessageRecord } from '@screen-service/registry/model';
import { describe, expect, it } from 'vitest';
import { askTtlSeconds, timeLeftText, urgentNow } from './push-payload.js';
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

describe('urgentNow (ADR 0306)', () => {
  const plan = (steps: { at: number; do: string }[]) => ({
    deadline: {
      due: '2026-11-28T12:10:00Z',
      steps: [...steps, { at: Date.parse('2026-11-28T12:10:00Z'), do: 'deadline' }],
    },
  });
  const urgentAt = Date.parse('2026-11-28T12:08:00Z');
  it('is true from the urgent step until the deadline', () => {
    const m = row(plan([{ at: urgentAt, do: 'urgent' }]));
    expect(urgentNow(m, urgentAt - 1)).toBe(false);
    expect(urgentNow(m, urgentAt)).toBe(true);
    expect(urgentNow(m, Date.parse('2026-11-28T12:10:00Z'))).toBe(false);
  });
  it('is false for a reminder, true for an ask the agent marked urgent, false for anything malformed', () => {
    expect(urgentNow(row(plan([{ at: urgentAt, do: 'remind' }])), urgentAt)).toBe(false);
    expect(urgentNow(row({ urgent: true }), now)).toBe(true);
    expect(urgentNow(row({ deadline: { due: 'soon', steps: [{ at: 0, do: 'urgent' }] } }), now)).toBe(false);
    expect(urgentNow(row({ deadline: { due: '2026-11-28T12:10:00Z', steps: 'urgent' } }), now)).toBe(false);
  });
});

describe('timeLeftText', () => {
  const due = (iso: string) => row({ deadline: { due: iso } });
  it('says the minutes left, rounded up; under a minute; hours for long waits', () => {
    expect(timeLeftText(due('2026-11-28T12:02:00Z'), now)).toBe('2 min left');
    expect(timeLeftText(due('2026-11-28T12:01:01Z'), now)).toBe('2 min left');
    expect(timeLeftText(due('2026-11-28T12:00:59Z'), now)).toBe('Under a minute left');
    expect(timeLeftText(due('2026-11-28T15:30:00Z'), now)).toBe('3 h left');
  });
  it('is null once passed or without a deadline', () => {
    expect(timeLeftText(due('2026-11-28T12:00:00Z'), now)).toBeNull();
    expect(timeLeftText(row({}), now)).toBeNull();
  });
});
