import { defineConfig } from 'tsup';
import { defineLibraryBuild } from '../../config/tsup.base.js';

// Four entries: the browser-safe core, the better-sqlite3 store, the SQLite WebAssembly store and the
// migration runner; splitting keeps one copy of shared code.
export default defineConfig(
  defineLibraryBuild({
    entry: {
      index: 'src/index.ts',
      sqlite: 'src/sqlite.ts',
      'browser-sqlite': 'src/browser-sqlite.ts',
      migrations: 'src/migrations-index.ts',
    },
    splitting: true,
  }),
);
