import { defineConfig } from 'tsup';
import { defineLibraryBuild } from '../../config/tsup.base.js';

export default defineConfig(
  defineLibraryBuild({
    entry: { index: 'src/index.ts', tables: 'src/tables/index.ts' },
    platform: 'browser',
  }),
);
