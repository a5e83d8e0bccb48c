// Sign-out and a change of person: everything this package kept on the device for a person goes (ADR 0278).
import { DEVICE_CACHE } from './device-cache.js';
import { deleteDeviceDb, deviceOwner, META, onStore } from './device-db.js';

/**
 * Deletes the waiting answers, the kept token and every kept read and photo (every person's cache, and the
 * unkeyed one of builds before the amendment); resolves once they are gone.
 */
export async function forgetDevice(): Promise<void> {
  await deleteDeviceDb();
  const kept = (await caches.keys()).filter((k) => k === DEVICE_CACHE || k.startsWith(`${DEVICE_CACHE}-`));
  await Promise.all(kept.map((k) => caches.delete(k)));
}

/**
 * Makes the device the signed-in person's before the app shows or keeps anything: when it kept data for
 * someone else (or for no one recorded, as an older build did), all of it is removed first. Resolves true
 * when it removed (the app then drops what it keeps elsewhere, such as the tables' copy), false when the
 * device was already this person's.
 */
export async function claimDevice(userId: string): Promise<boolean> {
  if (userId === '') throw new Error("claimDevice needs the signed-in user id (the session's user.id).");
  if ((await deviceOwner()) === userId) return false;
  await forgetDevice();
  await onStore(META, 'readwrite', (s) => s.put(userId, 'owner'));
  return true;
}
