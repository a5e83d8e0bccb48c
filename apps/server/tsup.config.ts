import { defineConfig } from 'tsup';
import { defineLibraryBuild } from '../../config/tsup.base.js';

export default defineConfig(
  defineLibraryBuild({
    entry: ['src/main.ts', 'src/serve-main.ts', 'src/index.ts', 'src/node-guard.ts'],
    dts: false,
    // The service runs only on the pinned Node 24 (its entries refuse any other).
    target: 'node24',
  }),
);
