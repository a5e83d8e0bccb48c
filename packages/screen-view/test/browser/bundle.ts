// Bundles the browser harness with esbuild (local files only, no network) into one IIFE script.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));

export async function bundleHarness(): Promise<string> {
  const out = await build({
    entryPoints: [join(here, 'harness.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  return out.outputFiles[0]!.text;
}
