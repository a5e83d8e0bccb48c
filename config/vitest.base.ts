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
      ...overrides,
    },
  });
}
