// Shared vitest settings: tests sit beside sources (src/**/*.test.ts) or under test/; benches are never tests.
import { defineConfig, type ViteUserConfig } from 'vitest/config';

// What a config gives its tests through `provide` (read with `inject`), in place of environment variables.
declare module 'vitest' {
  export interface ProvidedContext {
    /** The throw-away PostgreSQL cluster's admin URL (config/postgres-setup.ts). */
    postgresUrl: string;
    /** The store a shared end-to-end suite runs on: `postgres` in a package's vitest.postgres.config.ts. */
    testStore: 'sqlite' | 'postgres';
  }
}

export function defineTestConfig(overrides: ViteUserConfig['test'] = {}): ViteUserConfig {
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

const PACKAGES = new URL('../packages/', import.meta.url).pathname;

/**
 * Aliases that resolve the domain packages (registry, core, agent-tables, http-kit, store-sqlite, store-postgres, test-kit)
 * to their TypeScript sources. The domain packages' own tests need a store and the test kit, which sit above
 * them in the dependency graph: importing their sources (not a package dependency) keeps the graph free of
 * cycles and every package on one copy of each module, so `instanceof ServiceError` holds (ADR 0240).
 */
export function workspaceSources(): { find: RegExp; replacement: string }[] {
  const src = (pkg: string, file: string) => `${PACKAGES}${pkg}/src/${file}`;
  return [
    { find: /^@screen-service\/registry\/(mounts|argon2)$/, replacement: src('registry', '$1.ts') },
    { find: /^@screen-service\/registry\/([a-z-]+)$/, replacement: src('registry', '$1/index.ts') },
    { find: /^@screen-service\/core\/([a-z-]+)$/, replacement: src('core', '$1/index.ts') },
    { find: /^@screen-service\/core$/, replacement: src('core', 'index.ts') },
    {
      find: /^@screen-service\/(http-kit|store-sqlite|test-kit|store-postgres|store-conformance|agent-tables)$/,
      replacement: src('$1', 'index.ts'),
    },
    { find: /^@screen-service\/store-postgres\/testing$/, replacement: src('store-postgres', 'testing.ts') },
  ];
}

/** The test kit on PostgreSQL: `@screen-service/test-kit` resolves to the kit with a PostgreSQL store. */
const PG_KIT = `${PACKAGES}store-postgres/test/rules/pg-testing.ts`;

/**
 * The config of a domain package's rule tests on PostgreSQL: the same test files as the SQLite run, their
 * test kit swapped for one whose stores live in a throw-away PostgreSQL database (one per file, emptied
 * before each test). Every test file of the package runs (`src/**\/*.test.ts`) but those in `exclude`,
 * which must say why each is left out (ADR 0241: a rule test is store-neutral; one about SQLite itself
 * belongs in store-sqlite).
 */
export function definePostgresRulesConfig(exclude: Record<string, string> = {}): ViteUserConfig {
  const base = defineTestConfig({
    include: ['src/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', 'bench/**', ...Object.keys(exclude)],
    hookTimeout: 60_000,
    globalSetup: [new URL('./postgres-setup.ts', import.meta.url).pathname],
    setupFiles: [`${PACKAGES}store-postgres/test/rules/rules-setup.ts`],
  });
  return {
    ...base,
    resolve: { alias: [{ find: /^@screen-service\/test-kit$/, replacement: PG_KIT }, ...workspaceSources()] },
  };
}
