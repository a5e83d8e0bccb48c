import { defineConfig } from 'tsup';
import { defineLibraryBuild } from '../../config/tsup.base.js';

// Three entries: the browser-safe core, the better-sqlite3 store and the migration runner; splitting keeps one copy of shared code.
export default defineConfig(
  defineLibraryBuild({
    entry: { index: 'src/index.ts', sqlite: 'src/sqlite.ts', migrations: 'src/migrations-index.ts' },
    splitting: true,
  }),
);
