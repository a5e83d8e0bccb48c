import { defineConfig } from 'tsup';
import { defineLibraryBuild } from '../../config/tsup.base.js';

// Three entries: the browser-safe core, the better-sqlite3 store and the SQLite WebAssembly store; splitting keeps one copy of shared code.
export default defineConfig(
  defineLibraryBuild({ entry: ['src/index.ts', 'src/sqlite.ts', 'src/browser-sqlite.ts'], splitting: true }),
);
