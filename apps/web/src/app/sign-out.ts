// Leaving this device signed out: its buzzes stop, its tables, kept answers and reads go, the session is forgotten.
import { forgetDevice } from '@screen-service/phone-offline';
import { call, saveSession } from './api.js';
import { disownDevice } from './device-owner.js';
import { removeAllTables } from './phone-tables.js';
import { disableNotifications } from './push-device.js';
import { forgetZone } from './time-zone.js';

/**
 * Ends the session on this device. `how`: `here` ends this sign-in on the service; `everywhere` has already
 * ended every sign-in (the caller did), `gone` the account itself: only this device's leftovers remain.
 */
export async function signOutHere(how: 'here' | 'everywhere' | 'gone' = 'here'): Promise<void> {
  // A shared browser must not keep buzzing for the person who signed out.
  if (how === 'here') await disableNotifications().catch(() => {});
  if (how === 'here') await call('POST', '/auth/signout').catch(() => {});
  await removeAllTables().catch(() => {});
  forgetZone();
  saveSession(null);
  // The answers still waiting, the token the worker sends them with, the threads and photos read (ADR 0278).
  await forgetDevice().catch(() => {});
  disownDevice();
}
