import { defineConfig } from 'tsup';
import { defineLibraryBuild } from '../../config/tsup.base.js';

export default defineConfig(defineLibraryBuild({ entry: ['src/index.ts'] }));
