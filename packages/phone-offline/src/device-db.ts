// The phone's own database (IndexedDB): the answers waiting to be sent and the sign-in the sender uses.

/** The database this package keeps on the device; sign-out deletes it whole. */
export const DEVICE_DB = 'svc-offline';
const VERSION = 1;
/** Answers waiting (or refused), keyed by an increasing number: the order they were made. */
export const OUTBOX = 'outbox';
/**
 * Two records: `owner`, the user id of the person whose data the device keeps (ADR 0278, amended), and
 * `session`, the access token a service worker's Background Sync sends with, with the person it is for.
 */
export const META = 'meta';

let opened: Promise<IDBDatabase> | undefined;

function promised<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('The device database refused the request.'));
  });
}

/** Opens (creating on first use) the device database; one connection per page or worker. */
export function deviceDb(): Promise<IDBDatabase> {
  opened ??= new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(DEVICE_DB, VERSION);
    request.onupgradeneeded = () => {
      request.result.createObjectStore(OUTBOX, { keyPath: 'n', autoIncrement: true });
      request.result.createObjectStore(META);
    };
    request.onsuccess = () => {
      const db = request.result;
      // Sign-out in another tab deletes the database: let it go, the next use opens a fresh one.
      db.onversionchange = () => {
        db.close();
        opened = undefined;
      };
      resolve(db);
    };
    request.onerror = () => reject(request.error ?? new Error('The device database could not open.'));
    request.onblocked = () => reject(new Error('The device database is held by an older tab; close it.'));
  }).catch((error: unknown) => {
    opened = undefined;
    throw error;
  });
  return opened;
}

/** Runs one request on `store` and resolves once its transaction committed. */
export async function onStore<T>(
  store: string,
  mode: IDBTransactionMode,
  use: (s: IDBObjectStore) => IDBRequest<T>,
): Promise<T> {
  const tx = (await deviceDb()).transaction(store, mode);
  const result = promised(use(tx.objectStore(store)));
  await new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('The device database transaction failed.'));
    tx.onabort = () => reject(tx.error ?? new Error('The device database transaction was aborted.'));
  });
  return result;
}

/** Closes this page's connection and deletes the database (sign-out); resolves once it is gone. */
export async function deleteDeviceDb(): Promise<void> {
  const db = await opened?.catch(() => undefined);
  db?.close();
  opened = undefined;
  await new Promise<void>((resolve, reject) => {
    const request = indexedDB.deleteDatabase(DEVICE_DB);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error ?? new Error('The device database could not be deleted.'));
    // Another tab still holds it: it closes on versionchange, then the deletion goes ahead.
    request.onblocked = () => undefined;
  });
}

/** The person the device keeps data for (set by `claimDevice`), or null before anyone claimed it. */
export async function deviceOwner(): Promise<string | null> {
  return ((await onStore(META, 'readonly', (s) => s.get('owner'))) as string | undefined) ?? null;
}
