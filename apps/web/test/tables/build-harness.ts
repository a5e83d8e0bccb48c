// Builds the tables test pages into a temporary folder beside the app's built worker and wasm, for tests and the benchmark.
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { DIST_PUBLIC, serveStatic } from '../static-server.js';

const here = dirname(fileURLToPath(import.meta.url));

/** Serves harness.html (the app's tables client on `window.svc`) and conformance-worker.js on 127.0.0.1. */
export async function serveHarness(): Promise<{ url: string; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-tables-harness-'));
  for (const file of ['tables-worker.js', 'sqlite3.wasm'])
    copyFileSync(join(DIST_PUBLIC, file), join(dir, file));
  const common = {
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'warning',
  } as const;
  await build({ ...common, entryPoints: { harness: join(here, 'harness.ts') }, outdir: dir });
  await build({
    ...common,
    entryPoints: { 'conformance-worker': join(here, 'conformance-worker.ts') },
    outdir: dir,
    alias: { vitest: join(here, 'vitest-shim.ts') },
  });
  writeFileSync(
    join(dir, 'harness.html'),
    '<!doctype html><meta charset="utf-8"><title>tables</title><script type="module" src="harness.js"></script>',
  );
  const server = await serveStatic(dir);
  return {
    url: `${server.url}harness.html`,
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
