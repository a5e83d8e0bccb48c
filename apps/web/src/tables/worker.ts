// The tables worker: SQLite WebAssembly on the Origin Private File System (opfs-sahpool VFS), one request at a time.
import sqlite3InitModule from '@sqlite.org/sqlite-wasm';
import { createPhoneStore, type DatabasePool, type PhoneStore } from './phone-store.js';
import type { BootMessage, ReplyMessage, RequestMessage, TablesWorkerCode } from './protocol.js';

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

async function openPool(module: WebAssembly.Module | null): Promise<PhoneStore> {
  try {
    const sqlite3 = await loadSqlite(module);
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

let ready: Promise<PhoneStore> | null = null;
let wasmFrom: 'page' | 'worker' = 'worker';
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
      const value = request.kind === 'boot' ? { wasm: wasmFrom } : await store.handle(request as never);
      scope.postMessage({ n, ok: true, value });
    } catch (error) {
      scope.postMessage({ n, ok: false, code: codeOf(error), message: messageOf(error) });
    }
  });
};
