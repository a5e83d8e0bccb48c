// The person's time zone (ADR 0253): this device reports its zone to the account; the account's zone (the
// person may pin one in Settings › Account) is what `today` and `now` resolve in, here and on the server.
import { call } from './api.js';

/** What `PUT /me/time-zone` and `GET /me` answer about the zone. */
export interface AccountZone {
  time_zone: string | null;
  time_zone_pinned: boolean;
}

const KEPT = 'svc-time-zone';

/** This device's own IANA zone. */
export function deviceZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** The zone the person's dates resolve in: the account's as last heard, else this device's. */
export function personZone(): string {
  try {
    return localStorage.getItem(KEPT) || deviceZone();
  } catch {
    return deviceZone();
  }
}

/** Keeps the account's zone on this device, so dates written offline use it too. */
export function keepZone(zone: AccountZone): AccountZone {
  try {
    if (zone.time_zone) localStorage.setItem(KEPT, zone.time_zone);
  } catch {
    // Storage refused (private mode): the device's zone is used instead.
  }
  return zone;
}

/** Forgets the kept zone (sign-out). */
export function forgetZone(): void {
  try {
    localStorage.removeItem(KEPT);
  } catch {
    // Nothing was kept.
  }
}

/** Tells the account this device's zone (kept unless the person pinned one) and keeps the answer. */
export async function reportZone(): Promise<AccountZone | null> {
  try {
    return keepZone(
      await call<AccountZone>('PUT', '/me/time-zone', { time_zone: deviceZone(), how: 'report' }),
    );
  } catch {
    // Offline or signed out: the next start reports again; dates use the kept zone meanwhile.
    return null;
  }
}

/** The person's choice in settings: a zone (pinned), or `null` to follow their devices again. */
export async function chooseZone(zone: string | null): Promise<AccountZone> {
  const body = zone === null ? { time_zone: deviceZone(), how: 'follow' } : { time_zone: zone, how: 'pin' };
  return keepZone(await call<AccountZone>('PUT', '/me/time-zone', body));
}
