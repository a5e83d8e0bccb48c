import { defineConfig } from 'tsup';
import { defineLibraryBuild } from '../../config/tsup.base.js';

// One entry per tool; splitting keeps one copy of the shared errors, so `instanceof UsageError` holds across entries.
export default defineConfig(
  defineLibraryBuild({
    entry: {
      sse: 'src/sse.ts',
      backoff: 'src/backoff.ts',
      'atomic-file': 'src/atomic-file.ts',
      'command-line': 'src/command-line.ts',
      env: 'src/env.ts',
      outbound: 'src/outbound.ts',
    },
    splitting: true,
  }),
);
