// The person's time zone on the account (ADR 0253): devices report theirs, the person may pin one.
import { ServiceError } from '../kernel/errors.js';
import type { Store, TimeZoneChange } from '../model/repositories.js';

/** The account's zone as the app shows it; `time_zone` null until a device reported one (UTC is used). */
export interface TimeZoneView {
  time_zone: string | null;
  /** The person chose it: device reports leave it alone. */
  time_zone_pinned: boolean;
}

const HOW: readonly TimeZoneChange[] = ['report', 'pin', 'follow'];

/**
 * The IANA name Intl knows, in its canonical spelling (`US/Eastern` becomes `America/New_York`).
 *
 * @throws {ServiceError} `INVALID_INPUT` naming the field, for anything else.
 * @example
 * ```ts
 * checkTimeZone('America/New_York'); // 'America/New_York'
 * ```
 */
export function checkTimeZone(value: unknown, field = 'time_zone'): string {
  if (typeof value === 'string' && value.length > 0 && value.length <= 64) {
    try {
      return new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
    } catch {
      // Falls through to the refusal below.
    }
  }
  throw new ServiceError(
    'INVALID_INPUT',
    `${field} must be an IANA time zone such as America/New_York or Europe/Berlin (the app sends Intl.DateTimeFormat().resolvedOptions().timeZone).`,
    { field },
  );
}

/**
 * Reads and changes the account's zone.
 *
 * @example
 * ```ts
 * const zones = createAccountTimeZones(store);
 * await zones.set(userId, { time_zone: 'America/New_York', how: 'report' });
 * ```
 */
export function createAccountTimeZones(store: Store) {
  async function get(userId: string): Promise<TimeZoneView> {
    const tz = await store.users.getTimeZone(userId);
    if (!tz) throw new ServiceError('UNAUTHORIZED', 'This account no longer exists.');
    return { time_zone: tz.zone, time_zone_pinned: tz.pinned };
  }
  return {
    get,
    /** `report` (a device's zone: kept unless the person pinned one), `pin` or `follow` (settings). */
    async set(userId: string, input: { time_zone: unknown; how: unknown }): Promise<TimeZoneView> {
      const zone = checkTimeZone(input.time_zone);
      if (!HOW.includes(input.how as TimeZoneChange)) {
        throw new ServiceError(
          'INVALID_INPUT',
          "how must be 'report' (the device's zone, kept unless the person pinned one), 'pin' (the person's choice) or 'follow' (follow the devices again).",
          { field: 'how' },
        );
      }
      await store.users.setTimeZone(userId, zone, input.how as TimeZoneChange);
      return get(userId);
    },
  };
}
