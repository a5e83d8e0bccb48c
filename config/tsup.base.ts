// Shared tsup settings: every package builds ESM + .d.ts from src/index.ts (and any extra entries it names).
import type { Options } from 'tsup';

export function defineLibraryBuild(overrides: Options = {}): Options {
  return {
    entry: ['src/index.ts'],
    format: ['esm'],
    // Libraries promise engines.node >=22 (ADR 0001): build for the oldest Node they support.
    target: 'node22',
    platform: 'node',
    dts: true,
    sourcemap: true,
    clean: true,
    splitting: false,
    treeshake: true,
    ...overrides,
  };
}
