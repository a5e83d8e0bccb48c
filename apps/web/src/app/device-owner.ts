// The device belongs to the person signed in: before a view shows, what another person left here goes (ADR 0278).
import { claimDevice, rememberToken } from '@screen-service/phone-offline';
import type { Session } from './api.js';
import { removeAllTables } from './phone-tables.js';

let claimed: { user: string; done: Promise<void> } | undefined;
let ownedBy: string | undefined;

/** Whether the device was already claimed for this session's person in this page. */
export function ownedFor(s: Session): boolean {
  return ownedBy === s.user.id;
}

/**
 * Claims the device for the session's person: another person's (or no one recorded's) kept answers, token,
 * reads, photos and tables are removed, then this person's token is kept for Background Sync. Resolves when
 * the device is this person's; a device whose storage fails still resolves (nothing is kept then).
 */
export function ownDevice(s: Session): Promise<void> {
  if (claimed?.user !== s.user.id) {
    const user = s.user.id;
    claimed = {
      user,
      done: (async () => {
        // The tables' copy lives in the tables worker, not in this package's database.
        if (await claimDevice(user).catch(() => true)) await removeAllTables().catch(() => {});
        ownedBy = user;
      })(),
    };
  }
  return claimed.done.then(() => rememberToken(s.access_token, s.user.id)).catch(() => {});
}

/** Forgets the claim of this page (sign-out): the next sign-in claims again. */
export function disownDevice(): void {
  claimed = undefined;
  ownedBy = undefined;
}
