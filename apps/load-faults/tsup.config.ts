import { defineConfig } from 'tsup';
import { defineLibraryBuild } from '../../config/tsup.base.js';

export default defineConfig(
  defineLibraryBuild({
    // Two CLIs and the driver process the load CLI forks (one per --drivers).
    entry: ['src/load.ts', 'src/faults.ts', 'src/load-driver.ts'],
    dts: false,
    // Run only through npm on the pinned Node 24.
    target: 'node24',
  }),
);
