// The tables worker: SQLite WebAssembly on the Origin Private File System (opfs-sahpool VFS), one request at a time.
import sqlite3InitModule from '@sqlite.org/sqlite-wasm';
import { createPhoneStore, type DatabasePool, type PhoneStore } from './phone-store.js';
import type { ReplyMessage, RequestMessage, TablesWorkerCode } from './protocol.js';

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<RequestMessage>) => void) | null;
  postMessage(message: ReplyMessage): void;
};

class Unavailable extends Error {}

async function openPool(): Promise<PhoneStore> {
  try {
    const sqlite3 = await sqlite3InitModule();
    // opfs-sahpool keeps sync access handles open in this worker: no SharedArrayBuffer, so no COOP/COEP headers.
    const pool = await sqlite3.installOpfsSAHPoolVfs({ name: 'svc-tables', directory: '.svc-tables' });
    const databases: DatabasePool = {
      open: (file) => new pool.OpfsSAHPoolDb(file),
      unlink: (file) => pool.unlink(file),
      files: () => pool.getFileNames().filter((f) => !/-(journal|wal)$/.test(f)),
      // Capacity counts every file in the pool, the databases of agents not opened in this session too.
      reserve: async (count) => void (await pool.reserveMinimumCapacity(pool.getFileCount() + count)),
    };
    return createPhoneStore(databases);
  } catch (error) {
    throw new Unavailable(
      `This browser cannot keep tables here (${(error as Error).message}). Close other tabs of this app and reload, or use a current Chrome, Edge, Firefox or Safari.`,
    );
  }
}

const ready = openPool();
let queue: Promise<unknown> = Promise.resolve();

function codeOf(error: unknown): TablesWorkerCode {
  if (error instanceof Unavailable) return 'STORAGE_UNAVAILABLE';
  if (error instanceof TypeError) return 'INVALID_REQUEST';
  return 'STORAGE_FAILED';
}

function messageOf(error: unknown): string {
  if (error instanceof Unavailable) return error.message;
  const text = error instanceof Error ? error.message : String(error);
  if (/full|quota|SQLITE_IOERR|I\/O/i.test(text)) {
    return `This phone's storage is full, so the tables could not be saved (${text}). Free some space on the phone, then open the thread again.`;
  }
  return `The tables on this phone could not be saved (${text}).`;
}

scope.onmessage = (event) => {
  const { n, request } = event.data;
  queue = queue.then(async () => {
    try {
      const store = await ready;
      const value = await store.handle(request as never);
      scope.postMessage({ n, ok: true, value });
    } catch (error) {
      scope.postMessage({ n, ok: false, code: codeOf(error), message: messageOf(error) });
    }
  });
};
