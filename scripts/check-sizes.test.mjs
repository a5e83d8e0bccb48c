// check-sizes counts what it should and names what is over: a planted long file and package fail it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { MAX_FILE_LINES, measure } from './check-sizes.mjs';

test('a file over the limit is named; packages sum their files', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'check-sizes-'));
  const write = (file, n) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), 'x\n'.repeat(n));
  };
  write('packages/a/src/small.ts', 10);
  write('packages/a/src/long.ts', MAX_FILE_LINES + 1);
  write('apps/b/src/ok.ts', MAX_FILE_LINES);
  const { packages, longFiles } = measure(
    ['packages/a/src/small.ts', 'packages/a/src/long.ts', 'apps/b/src/ok.ts'],
    root,
  );
  assert.deepEqual(longFiles, [{ file: 'packages/a/src/long.ts', lines: MAX_FILE_LINES + 1 }]);
  assert.equal(packages.get('packages/a'), MAX_FILE_LINES + 11);
  assert.equal(packages.get('apps/b'), MAX_FILE_LINES);
  fs.rmSync(root, { recursive: true });
});
