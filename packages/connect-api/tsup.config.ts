import { defineConfig } from 'tsup';
import { defineLibraryBuild } from '../../config/tsup.base.js';

// Two entries: the Express router (index) and the host client library (client, no Express import).
export default defineConfig(
  defineLibraryBuild({ entry: { index: 'src/index.ts', client: 'src/client.ts' }, splitting: true }),
);
