import { defineConfig } from 'tsup';
import { defineLibraryBuild } from '../../config/tsup.base.js';

export default defineConfig(
  defineLibraryBuild({
    entry: ['src/svc.ts', 'src/svc-main.ts'],
    dts: false,
    // svc runs only on the pinned Node 24 (svc.ts refuses any other before loading the rest).
    target: 'node24',
  }),
);
