#!/usr/bin/env node
// Size limits of the source tree (issue 36, ADR 0240): no package's src over 6,000 lines, no source file over
// 500 lines. Functions over 150 lines are biome's noExcessiveLinesPerFunction (biome.json); this checks what
// biome cannot. Tests, benches and generated files do not count: they are read one case at a time.
// Run by `npm run lint`; `node scripts/check-sizes.mjs --list` prints every package's size.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
export const MAX_FILE_LINES = 500;
export const MAX_PACKAGE_LINES = 6000;
/**
 * Packages allowed past MAX_PACKAGE_LINES for now, each with its ceiling and why (an ADR says when it ends).
 * The ceiling is checked as strictly as the limit: growing past it fails.
 */
export const PACKAGE_EXCEPTIONS = {};
const SOURCE = /\.(ts|tsx|mts|js|mjs|css)$/;
const NOT_SOURCE = /(\.test\.|\.d\.ts$|\/test\/|\/bench\/|\/generated\/)/;

/** Source files under each workspace's src, as git lists them (so build output never counts). */
function sourceFiles() {
  const out = execFileSync('git', ['ls-files', '--', 'packages/*/src/*', 'apps/*/src/*'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return out
    .split('\n')
    .filter((f) => SOURCE.test(f) && !NOT_SOURCE.test(f))
    .filter((f) => fs.existsSync(path.join(ROOT, f)));
}

const lines = (root, file) => {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  return text.length === 0 ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
};

/** Lines per package (`packages/x`, `apps/y`) and the files over the limit, for files relative to `root`. */
export function measure(files = sourceFiles(), root = ROOT) {
  const packages = new Map();
  const files500 = [];
  for (const f of files) {
    const n = lines(root, f);
    const pkg = f.split('/').slice(0, 2).join('/');
    packages.set(pkg, (packages.get(pkg) ?? 0) + n);
    if (n > MAX_FILE_LINES) files500.push({ file: f, lines: n });
  }
  return { packages, longFiles: files500 };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { packages, longFiles } = measure();
  const problems = [];
  for (const { file, lines: n } of longFiles)
    problems.push(`${file}: ${n} lines (at most ${MAX_FILE_LINES}); split it by what each part is about`);
  for (const [pkg, n] of packages) {
    const most = PACKAGE_EXCEPTIONS[pkg]?.lines ?? MAX_PACKAGE_LINES;
    if (n > most)
      problems.push(
        `${pkg}/src: ${n} lines (at most ${most}); a bounded context should move to its own package`,
      );
  }
  if (process.argv.includes('--list')) {
    for (const [pkg, n] of [...packages].sort((a, b) => b[1] - a[1]))
      console.log(`${String(n).padStart(6)}  ${pkg}`);
  }
  if (problems.length > 0) {
    console.error(`check-sizes: ${problems.length} over the limits (ADR 0240):`);
    for (const p of problems) console.error(`  - ${p}`);
    process.exit(1);
  }
  console.log(`check-sizes: ${packages.size} packages, every file and package within the limits`);
}
