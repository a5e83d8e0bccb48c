import { defineTestConfig } from '../../config/vitest.base.js';

// Each test starts the real built server as a child process and SIGKILLs it: give hooks and tests room on a
// loaded 2-core machine, and run the files one at a time so two servers never compete for the cores.
export default defineTestConfig({ testTimeout: 60_000, hookTimeout: 60_000, fileParallelism: false });
