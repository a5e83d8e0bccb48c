// The README's reference tables are checked against the catalog and the error codes so they cannot drift.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { catalog, PARSE_ERROR_CODES } from '../src/index.js';

const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');

test('the README lists every component usage and every error code', () => {
  for (const spec of Object.values(catalog))
    expect(readme).toContain(`\`${spec.usage.replaceAll('|', '\\|')}\``);
  for (const code of PARSE_ERROR_CODES) expect(readme).toMatch(new RegExp(`\\| \`${code}\` +\\|`));
});
