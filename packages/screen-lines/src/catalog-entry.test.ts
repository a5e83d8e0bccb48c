import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import * as slim from './catalog-entry.js';
import * as full from './index.js';

describe('the ./catalog entry', () => {
  it('exports the same catalog and tap-line functions as the main entry', () => {
    expect(slim.catalog).toBe(full.catalog);
    expect(slim.formatTapLine).toBe(full.formatTapLine);
    expect(slim.formatEcho).toBe(full.formatEcho);
    expect(slim.parseTapLine).toBe(full.parseTapLine);
    // Besides the catalog and tap lines: the table name rules and limits (no parser needed to check a name).
    for (const key of Object.keys(slim))
      expect(slim[key as keyof typeof slim], key).toBe(full[key as keyof typeof full]);
    expect(Object.keys(slim)).toEqual(
      expect.arrayContaining([
        'catalog',
        'formatEcho',
        'formatTapLine',
        'parseTapLine',
        'TABLE_RULE_CODES',
        'checkTableName',
      ]),
    );
  });

  it('bundles without the parser and without the parts of zod the catalog never calls', async () => {
    const result = await build({
      entryPoints: [fileURLToPath(new URL('./catalog-entry.ts', import.meta.url))],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      minify: true,
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    // Files esbuild read but shook out entirely show 0 bytes in the output.
    const [output] = Object.values(result.metafile.outputs);
    const inputs = Object.entries(output!.inputs)
      .filter(([, v]) => v.bytesInOutput > 0)
      .map(([f]) => f);
    expect(inputs.some((f) => f.endsWith('catalog/index.ts'))).toBe(true);
    expect(inputs.filter((f) => /chevrotain|[\\/]src[\\/](parse|scan|reader)\.ts$/.test(f))).toEqual([]);
    expect(
      inputs.filter((f) =>
        /zod[\\/]v4[\\/](locales[\\/]index|core[\\/]compile|classic[\\/]from-json)/.test(f),
      ),
    ).toEqual([]);
  });
});
