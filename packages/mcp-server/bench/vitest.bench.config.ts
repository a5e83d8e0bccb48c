// The task latency bench (ADR 0265) runs as a vitest file over the test kit: `npm run bench:tasks -w packages/mcp-server`.
import { defineTestConfig } from '../../../config/vitest.base.js';

export default defineTestConfig({
  include: ['bench/**/*.bench.test.ts'],
  exclude: ['**/node_modules/**'],
  testTimeout: 300_000,
});
