// Sign-out: everything this package kept on the device for the person goes (ADR 0278).
import { DEVICE_CACHE } from './device-cache.js';
import { deleteDeviceDb } from './device-db.js';

/** Deletes the waiting answers, the kept token and every kept read and photo; resolves once they are gone. */
export async function forgetDevice(): Promise<void> {
  await deleteDeviceDb();
  await caches.delete(DEVICE_CACHE);
}
