// Worker entry (bundled by the test): the tables engine's conformance suite against the SQLite WebAssembly store on OPFS.

import type { TableStore } from '@screen-service/tables-engine';
import { createWasmSqliteStore } from '@screen-service/tables-engine/browser-sqlite';
import sqlite3InitModule from '@sqlite.org/sqlite-wasm';
import { runStoreConformance } from '../../../../packages/tables-engine/test/store-conformance.js';
import { runCases } from './vitest-shim.js';

const scope = self as unknown as { postMessage(message: unknown): void };

async function main() {
  const sqlite3 = await sqlite3InitModule();
  const pool = await sqlite3.installOpfsSAHPoolVfs({
    name: 'svc-conformance',
    directory: '.svc-conformance',
  });
  await pool.reserveMinimumCapacity(8);
  let n = 0;
  let last: { db: { close(): void }; file: string } | undefined;
  const open = (): TableStore => {
    // Each case gets a fresh file on OPFS; the previous one is closed and deleted.
    if (last) {
      last.db.close();
      pool.unlink(last.file);
    }
    const file = `/conformance-${++n}.sqlite3`;
    const db = new pool.OpfsSAHPoolDb(file);
    last = { db, file };
    return createWasmSqliteStore(db);
  };
  runStoreConformance({ name: 'opfs-sqlite', create: open });
  // The same suite on a store that loses the last row of every export must fail: the harness can fail.
  runStoreConformance({
    name: 'broken',
    create: () => {
      const store = open();
      return {
        ...store,
        exportTable: async (ref) => {
          const dump = await store.exportTable(ref);
          return dump && { ...dump, rows: dump.rows.slice(0, -1) };
        },
      };
    },
  });
  const results = await runCases();
  scope.postMessage({
    vfs: pool.vfsName,
    files: pool.getFileNames(),
    good: results.filter((r) => r.name.startsWith('opfs-sqlite')),
    broken: results.filter((r) => r.name.startsWith('broken')),
  });
}

main().catch((error) => scope.postMessage({ error: String(error?.stack ?? error) }));
