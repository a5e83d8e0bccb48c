import { defineConfig } from 'tsup';
import { defineLibraryBuild } from '../../config/tsup.base.js';

// One entry per context; splitting keeps one copy of shared code, so `instanceof ServiceError` holds across entries.
export default defineConfig(
  defineLibraryBuild({
    entry: {
      kernel: 'src/kernel/index.ts',
      model: 'src/model/index.ts',
      accounts: 'src/accounts/index.ts',
      agents: 'src/agents/index.ts',
      hosts: 'src/hosts/index.ts',
      mounts: 'src/mounts.ts',
      argon2: 'src/argon2.ts',
    },
    splitting: true,
  }),
);
