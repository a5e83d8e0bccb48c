import { defineConfig } from 'tsup';
import { defineLibraryBuild } from '../../config/tsup.base.js';

// Entries: the rules (no native module), the SQLite store, the argon2id hasher, the test kit, the Store
// conformance suite (imports vitest) and the mount paths (no Node import, so the browser app reads them too);
// splitting keeps one copy of the shared code, so `instanceof ServiceError` holds across entries.
export default defineConfig(
  defineLibraryBuild({
    entry: {
      index: 'src/index.ts',
      sqlite: 'src/sqlite.ts',
      argon2: 'src/argon2.ts',
      testing: 'src/testing.ts',
      mounts: 'src/mounts.ts',
      'store-conformance': 'src/store-conformance.ts',
    },
    splitting: true,
  }),
);
