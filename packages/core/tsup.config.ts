import { defineConfig } from 'tsup';
import { defineLibraryBuild } from '../../config/tsup.base.js';

// One entry per context; splitting keeps one copy of shared code.
export default defineConfig(
  defineLibraryBuild({
    entry: {
      index: 'src/index.ts',
      threads: 'src/threads/index.ts',
      'host-messages': 'src/host-messages/index.ts',
      sharing: 'src/sharing/index.ts',
      housekeeping: 'src/housekeeping/index.ts',
    },
    splitting: true,
  }),
);
