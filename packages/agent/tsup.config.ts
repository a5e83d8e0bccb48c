import { defineConfig } from 'tsup';
import { defineLibraryBuild } from '../../config/tsup.base.js';

// Runtime-neutral output (fetch only): Node 20+, Deno, Bun and edge runtimes load the same file.
export default defineConfig(defineLibraryBuild({ target: 'node20', platform: 'neutral' }));
