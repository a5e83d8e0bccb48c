// Guards the rule that every rule takes the clock and randomness injected: only system.ts may read them.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const PACKAGES = path.resolve(import.meta.dirname, '../../..');
// Every package that holds rules: the registry, the core and OAuth.
const SOURCES = ['registry/src', 'core/src', 'oauth/src'].map((dir) => path.join(PACKAGES, dir));
// system.ts is the one reader. (The store conformance suite, a test kit whose clocks start at the wall clock on
// purpose, is its own package: @screen-service/store-conformance.)
const ALLOWED = path.resolve(import.meta.dirname, 'system.ts');
const FORBIDDEN = [
  /\bDate\.now\b/,
  /\bMath\.random\b/,
  /\brandomBytes\b/,
  /\brandomInt\b/,
  /\brandomUUID\b/,
  /new Date\(\)/,
];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** Source lines that read the clock or the OS randomness, comments excluded. */
function offenders(file: string): string[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((line, i) => ({ line: line.replace(/\/\/.*$/, '').replace(/^\s*\*.*$/, ''), n: i + 1 }))
    .filter(({ line }) => FORBIDDEN.some((re) => re.test(line)))
    .map(({ n }) => `${path.relative(process.cwd(), file)}:${n}`);
}

describe('injected clock and randomness', () => {
  it('no rule of the registry, the core or oauth reads Date.now, new Date(), Math.random or node:crypto randomness', () => {
    const files = SOURCES.flatMap(sourceFiles).filter((f) => f !== ALLOWED);
    expect(files.length).toBeGreaterThan(20);
    expect(files.flatMap(offenders)).toEqual([]);
  });

  it('the scan finds a planted offender (it can fail)', () => {
    const dir = fs.mkdtempSync(path.join(import.meta.dirname, '..', '.tmp-scan-'));
    try {
      const file = path.join(dir, 'bad.ts');
      fs.writeFileSync(file, '// Date.now() in a comment is fine\nexport const t = Date.now();\n');
      expect(offenders(file)).toEqual([`${path.relative(process.cwd(), file)}:2`]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
