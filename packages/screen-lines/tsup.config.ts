import { defineConfig } from 'tsup';
import { defineLibraryBuild } from '../../config/tsup.base.js';

// Two entries sharing chunks: `./catalog` (no parser, for renderers) and the full package.
export default defineConfig(
  defineLibraryBuild({ entry: { index: 'src/index.ts', catalog: 'src/catalog-entry.ts' }, splitting: true }),
);
