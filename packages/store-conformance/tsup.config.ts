import { defineConfig } from 'tsup';
import { defineLibraryBuild } from '../../config/tsup.base.js';

// One entry: the suite (it imports vitest, a peer dependency the caller's test run provides).
export default defineConfig(defineLibraryBuild({ entry: { index: 'src/index.ts' } }));
