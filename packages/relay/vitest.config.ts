import { defineTestConfig } from '../../config/vitest.base.js';

// Server-backed tests start the built server and the relay as child processes; one file at a time.
export default defineTestConfig({ testTimeout: 90_000, hookTimeout: 60_000, fileParallelism: false });
