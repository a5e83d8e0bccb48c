import { defineConfig } from 'tsup';
import { defineLibraryBuild } from '../../config/tsup.base.js';

// The library and its `svc-relay` program (stdio in, stdio or HTTP out): Node only.
export default defineConfig(defineLibraryBuild({ entry: ['src/index.ts', 'src/bin.ts'], target: 'node22' }));
