// The tables worker: this device's copy of the tables, SQLite WebAssembly on OPFS (opfs-sahpool), in memory when another tab holds it.

import {
  type BootMessage,
  createPhoneStore,
  type DatabasePool,
  type PhoneStore,
  type ReplyMessage,
  type RequestMessage,
  type TablesWorkerCode,
} from '@screen-service/phone-offline/tables';
import sqlite3InitModule from '@sqlite.org/sqlite-wasm';

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<RequestMessage | BootMessage>) => void) | null;
  postMessage(message: ReplyMessage): void;
};

class Unavailable extends Error {}

type Instantiate = (
  imports: WebAssembly.Imports,
  done: (i: WebAssembly.Instance, m: WebAssembly.Module) => void,
) => object;
const initSqlite = sqlite3InitModule as unknown as (options?: {
  instantiateWasm?: Instantiate;
}) => ReturnType<typeof sqlite3InitModule>;

/** SQLite from the page's compiled module when given (no second compile), else fetched and compiled here. */
async function loadSqlite(module: WebAssembly.Module | null) {
  if (!module) return initSqlite();
  let fail: (error: unknown) => void = () => {};
  const failed = new Promise<never>((_, reject) => {
    fail = reject;
  });
  const instantiateWasm: Instantiate = (imports, done) => {
    WebAssembly.instantiate(module, imports).then((instance) => done(instance, module), fail);
    return {};
  };
  return Promise.race([initSqlite({ instantiateWasm }), failed]);
}

type Sqlite = Awaited<ReturnType<typeof initSqlite>>;

/**
 * Copies kept in memory for this tab only: the OPFS pool allows one holder, so a second tab or window of the
 * app copies the tables from the service again and draws every view from memory (ADR 0250).
 */
function memoryPool(sqlite3: Sqlite): DatabasePool {
  const dbs = new Map<string, InstanceType<Sqlite['oo1']['DB']>>();
  return {
    open: (file) => {
      const db = new sqlite3.oo1.DB(':memory:', 'c');
      dbs.set(file, db);
      return db;
    },
    unlink: (file) => dbs.delete(file),
    files: () => [...dbs.keys()],
    reserve: async () => {},
  };
}

async function openPool(module: WebAssembly.Module | null): Promise<PhoneStore> {
  let sqlite3: Sqlite;
  try {
    sqlite3 = await loadSqlite(module);
  } catch (error) {
    throw new Unavailable(
      `This browser cannot run the tables (${(error as Error).message}). Use a current Chrome, Edge, Firefox or Safari.`,
    );
  }
  try {
    // opfs-sahpool keeps sync access handles open in this worker: no SharedArrayBuffer, so no COOP/COEP headers.
    const pool = await sqlite3.installOpfsSAHPoolVfs({ name: 'svc-tables', directory: '.svc-tables' });
    const databases: DatabasePool = {
      open: (file) => new pool.OpfsSAHPoolDb(file),
      unlink: (file) => pool.unlink(file),
      files: () => pool.getFileNames().filter((f) => !/-(journal|wal)$/.test(f)),
      // Capacity counts every file in the pool, the databases of agents not opened in this session too.
      reserve: async (count) => void (await pool.reserveMinimumCapacity(pool.getFileCount() + count)),
    };
    storage = 'opfs';
    return createPhoneStore(databases);
  } catch {
    // Another tab of the app holds the pool (or OPFS is missing): this tab keeps its copies in memory.
    storage = 'memory';
    return createPhoneStore(memoryPool(sqlite3));
  }
}

let ready: Promise<PhoneStore> | null = null;
let wasmFrom: 'page' | 'worker' = 'worker';
let storage: 'opfs' | 'memory' = 'memory';
const start = (module: WebAssembly.Module | null) => {
  if (!ready && module) wasmFrom = 'page';
  ready ??= openPool(module);
  return ready;
};
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
  if ('wasm' in event.data) {
    void start(event.data.wasm).catch(() => {});
    return;
  }
  const { n, request } = event.data;
  queue = queue.then(async () => {
    try {
      const store = await start(null);
      const value =
        request.kind === 'boot' ? { wasm: wasmFrom, storage } : await store.handle(request as never);
      scope.postMessage({ n, ok: true, value });
    } catch (error) {
      scope.postMessage({ n, ok: false, code: codeOf(error), message: messageOf(error) });
    }
  });
};
