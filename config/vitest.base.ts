// Shared vitest settings: tests sit beside sources (src/**/*.test.ts) or under test/; benches are never tests.
import { defineConfig, type ViteUserConfig } from 'vitest/config';

export function defineTestConfig(overrides: ViteUserConfig['test'] = {}) {
  return defineConfig({
    test: {
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      exclude: ['**/node_modules/**', '**/dist/**', 'bench/**'],
      environment: 'node',
      testTimeout: 20_000,
      hookTimeout: 20_000,
      reporters: process.env.CI ? ['default'] : ['default'],
      // expect.poll waits up to 10 s (vitest's default is 1 s): CI runs three packages' tests at once on two
      // cores, and a condition that never holds still fails, only later.
      expect: { poll: { timeout: 10_000 } },
      ...overrides,
    },
  });
}
