// The person's attention (issue 39, ADR 0258): quiet hours in the account's time zone (asks wait silently,
// or break through when the agent marks them urgent and the person allows it), a per-agent budget for
// buzzes that need no answer, and presence on any device (the app in front of the person: no buzz).
import { ServiceError } from '@screen-service/registry/kernel';
import type { PushSettingsRecord, Store } from '@screen-service/registry/model';
import type { LoadedRow } from './push-payload.js';
import { PRESENCE_TTL_MS } from './push-rules.js';

/** The settings without a row: no quiet hours, urgent asks allowed, one buzz per agent per hour. */
export const DEFAULT_PUSH_SETTINGS: Omit<PushSettingsRecord, 'userId' | 'updatedAt'> = {
  quietStart: null,
  quietEnd: null,
  allowUrgent: true,
  plainPerHour: 1,
};

/** The settings as the app reads and writes them (`GET /push`, `PUT /push/settings`). */
export interface PushSettingsView {
  /** Local times `HH:MM` in the account's time zone; null: no quiet hours. */
  quiet_hours: { start: string; end: string } | null;
  allow_urgent: boolean;
  /** Buzzes that need no answer, per agent per hour; 0: every one buzzes. */
  plain_per_hour: number;
}

const hhmm = (m: number) =>
  `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

export function toSettingsView(r: PushSettingsRecord | null): PushSettingsView {
  const s = r ?? DEFAULT_PUSH_SETTINGS;
  return {
    quiet_hours:
      s.quietStart === null || s.quietEnd === null
        ? null
        : { start: hhmm(s.quietStart), end: hhmm(s.quietEnd) },
    allow_urgent: s.allowUrgent,
    plain_per_hour: s.plainPerHour,
  };
}

function minutesOf(value: unknown, field: string): number {
  const m = typeof value === 'string' ? /^([01]\d|2[0-3]):([0-5]\d)$/.exec(value) : null;
  if (!m)
    throw new ServiceError('INVALID_INPUT', `${field} must be a time like "22:00" (24-hour HH:MM).`, {
      field,
    });
  return Number(m[1]) * 60 + Number(m[2]);
}

/** Checks what the app sends; names the field and the fix on bad input. */
export function parseSettings(
  input: Record<string, unknown>,
): Omit<PushSettingsRecord, 'userId' | 'updatedAt'> {
  const q = input.quiet_hours;
  let quietStart: number | null = null;
  let quietEnd: number | null = null;
  if (q !== null && q !== undefined) {
    if (typeof q !== 'object') {
      throw new ServiceError(
        'INVALID_INPUT',
        'quiet_hours must be {"start":"22:00","end":"07:00"} or null.',
        {
          field: 'quiet_hours',
        },
      );
    }
    quietStart = minutesOf((q as Record<string, unknown>).start, 'quiet_hours.start');
    quietEnd = minutesOf((q as Record<string, unknown>).end, 'quiet_hours.end');
    if (quietStart === quietEnd) {
      throw new ServiceError('INVALID_INPUT', 'quiet_hours.start and end must differ.', {
        field: 'quiet_hours',
      });
    }
  }
  const urgent = input.allow_urgent ?? DEFAULT_PUSH_SETTINGS.allowUrgent;
  if (typeof urgent !== 'boolean') {
    throw new ServiceError('INVALID_INPUT', 'allow_urgent must be true or false.', { field: 'allow_urgent' });
  }
  const perHour = input.plain_per_hour ?? DEFAULT_PUSH_SETTINGS.plainPerHour;
  if (!Number.isInteger(perHour) || (perHour as number) < 0 || (perHour as number) > 60) {
    throw new ServiceError(
      'INVALID_INPUT',
      'plain_per_hour must be a whole number from 0 (no limit) to 60.',
      {
        field: 'plain_per_hour',
      },
    );
  }
  return { quietStart, quietEnd, allowUrgent: urgent, plainPerHour: perHour as number };
}

/** Minutes after local midnight at `at` in `timeZone` (UTC when unknown or not a zone this runtime knows). */
export function localMinutes(at: number, timeZone: string | null): number {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-GB', {
      timeZone: timeZone ?? 'UTC',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(at);
  } catch {
    return localMinutes(at, 'UTC');
  }
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  return get('hour') * 60 + get('minute');
}

/**
 * When quiet hours end if `at` falls inside them (a window may run past midnight), else null.
 *
 * @example
 * ```ts
 * quietUntil({ quietStart: 22 * 60, quietEnd: 7 * 60 }, 'Europe/Berlin', Date.parse('2026-11-28T23:30:00Z')); // 06:00Z
 * ```
 */
export function quietUntil(
  s: Pick<PushSettingsRecord, 'quietStart' | 'quietEnd'>,
  timeZone: string | null,
  at: number,
): number | null {
  if (s.quietStart === null || s.quietEnd === null) return null;
  const now = localMinutes(at, timeZone);
  const inside =
    s.quietStart < s.quietEnd
      ? now >= s.quietStart && now < s.quietEnd
      : now >= s.quietStart || now < s.quietEnd;
  if (!inside) return null;
  const minutes = (s.quietEnd - now + 1440) % 1440;
  // From the start of this minute: the wait ends on the local minute the quiet hours do.
  return at - (at % 60_000) + minutes * 60_000;
}

/**
 * When a buzz that is due now should go instead (issue 39), or null for now: quiet hours hold it to their
 * end unless the agent marked it urgent and the person allows urgent; a row that asks nothing waits for the
 * agent's budget (one per `3600 / plain_per_hour` seconds per device), gathered with the rows after it.
 */
export async function attentionWait(
  store: Store,
  input: {
    userId: string;
    at: number;
    row: Pick<LoadedRow, 'actionable' | 'urgent'>;
    lastPlainAt?: number | undefined;
  },
): Promise<number | null> {
  const s = (await store.push.getSettings(input.userId)) ?? DEFAULT_PUSH_SETTINGS;
  if (s.quietStart !== null && !(input.row.urgent && s.allowUrgent)) {
    const zone = (await store.users.getTimeZone(input.userId))?.zone ?? null;
    const until = quietUntil(s, zone, input.at);
    if (until !== null) return until;
  }
  if (input.row.actionable || s.plainPerHour === 0 || input.lastPlainAt === undefined) return null;
  const next = input.lastPlainAt + 3_600_000 / s.plainPerHour;
  return input.at < next ? next : null;
}

/** The person's attention use cases: the settings page, and the app's "in front of the person" mark. */
export interface PushAttention {
  settings(userId: string): Promise<PushSettingsView>;
  saveSettings(userId: string, input: Record<string, unknown>): Promise<PushSettingsView>;
  /** The app shows on a device (renewed every minute while visible) or not: no buzz meanwhile. */
  setActive(userId: string, active: unknown, device: unknown): Promise<{ active: boolean }>;
}

const DEVICE = /^[A-Za-z0-9_-]{1,64}$/;

export function createPushAttention(deps: { store: Store; now: () => number }): PushAttention {
  const { store, now } = deps;
  return {
    async settings(userId) {
      return toSettingsView(await store.push.getSettings(userId));
    },
    async saveSettings(userId, input) {
      const record = { userId, ...parseSettings(input), updatedAt: now() };
      await store.push.saveSettings(record);
      return toSettingsView(record);
    },
    async setActive(userId, active, device) {
      if (typeof active !== 'boolean') {
        throw new ServiceError('INVALID_INPUT', 'active must be true or false.', { field: 'active' });
      }
      if (typeof device !== 'string' || !DEVICE.test(device)) {
        throw new ServiceError('INVALID_INPUT', 'device must be 1 to 64 letters, digits, "_" or "-".', {
          field: 'device',
        });
      }
      await store.push.setActive(userId, device, active ? now() + PRESENCE_TTL_MS : null);
      return { active };
    },
  };
}
