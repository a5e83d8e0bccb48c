// Adds up vitest's per-package "Tests  N passed | M failed" lines into one closing line for CI logs.
import fs from 'node:fs';

const ansi = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
const log = fs.readFileSync(process.argv[2] ?? 0, 'utf8').replace(ansi, '');
let passed = 0;
let failed = 0;
let skipped = 0;
let files = 0;
for (const line of log.split('\n')) {
  const m = /^\s*Tests\s+(.*)\((\d+)\)\s*$/.exec(line);
  if (!m) continue;
  files += 1;
  passed += Number(/(\d+) passed/.exec(m[1])?.[1] ?? 0);
  failed += Number(/(\d+) failed/.exec(m[1])?.[1] ?? 0);
  skipped += Number(/(\d+) skipped/.exec(m[1])?.[1] ?? 0) + Number(/(\d+) todo/.exec(m[1])?.[1] ?? 0);
}
console.log(`\nTest suites: ${files} vitest runs`);
console.log(`Tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
if (files === 0) {
  console.error('No vitest summary found: did any test run?');
  process.exit(1);
}
