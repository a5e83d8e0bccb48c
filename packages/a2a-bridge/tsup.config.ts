// Build: the library entry and the svc-a2a CLI entry, both ESM with types.
import { defineConfig } from 'tsup';
import { defineLibraryBuild } from '../../config/tsup.base.js';

export default defineConfig(defineLibraryBuild({ entry: ['src/index.ts', 'src/cli.ts'] }));
