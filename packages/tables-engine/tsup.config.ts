import { defineConfig } from 'tsup';
import { defineLibraryBuild } from '../../config/tsup.base.js';

// Two entries: the browser-safe core and the better-sqlite3 store; splitting keeps one copy of shared code.
export default defineConfig(
  defineLibraryBuild({ entry: ['src/index.ts', 'src/sqlite.ts'], splitting: true }),
);
