// Atomic files on the real file system: modes, missing folders, failures that leave the old file, racing writers.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic, writeFileAtomicSync, writeJsonAtomic } from './atomic-file.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'io-kit-atomic-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;
const leftovers = (folder: string) => fs.readdirSync(folder).filter((n) => n.endsWith('.tmp'));

describe('writeFileAtomic', () => {
  it('writes owner-only by default, and sets a given mode exactly whatever the umask', async () => {
    const file = path.join(dir, 'state.json');
    await writeJsonAtomic(file, { a: 1 });
    expect(fs.readFileSync(file, 'utf8')).toBe('{\n  "a": 1\n}\n');
    expect(modeOf(file)).toBe(0o600);
    // 0o666 under the usual umask 022 would open as 0o644; the writer sets the mode it was asked for.
    await writeFileAtomic(file, 'x', { mode: 0o666 });
    expect(modeOf(file)).toBe(0o666);
    expect(leftovers(dir)).toEqual([]);
  });

  it('makes missing folders owner-only, and again when the folder was removed since', async () => {
    const file = path.join(dir, 'a', 'b', 'state.json');
    await writeFileAtomic(file, 'one');
    expect(modeOf(path.join(dir, 'a', 'b'))).toBe(0o700);
    fs.rmSync(path.join(dir, 'a'), { recursive: true });
    await writeFileAtomic(file, 'two');
    expect(fs.readFileSync(file, 'utf8')).toBe('two');
  });

  it('leaves an existing folder as it is', async () => {
    fs.chmodSync(dir, 0o755);
    await writeFileAtomic(path.join(dir, 'f'), 'x');
    expect(modeOf(dir)).toBe(0o755);
  });

  it('keeps the old content and no temp file when the rename fails', async () => {
    const target = path.join(dir, 'taken');
    fs.mkdirSync(target);
    fs.writeFileSync(path.join(target, 'inside'), 'old');
    await expect(writeFileAtomic(target, 'new')).rejects.toThrow();
    expect(fs.readFileSync(path.join(target, 'inside'), 'utf8')).toBe('old');
    expect(leftovers(dir)).toEqual([]);
  });

  it('steps over stale temp files of a crashed process with the same id', async () => {
    const file = path.join(dir, 'state.json');
    for (let k = 1; k <= 200; k++) fs.writeFileSync(`${file}.${process.pid}.${k}.tmp`, 'stale');
    await writeFileAtomic(file, 'fresh');
    expect(fs.readFileSync(file, 'utf8')).toBe('fresh');
    expect(leftovers(dir)).toHaveLength(200);
  });

  it('never lets a reader see half a file while writers race', async () => {
    const file = path.join(dir, 'state.json');
    const big = (n: number) => ({ n, pad: 'x'.repeat(200_000) });
    await writeJsonAtomic(file, big(0));
    let writing = true;
    const reads = (async () => {
      let seen = 0;
      while (writing) {
        expect(JSON.parse(fs.readFileSync(file, 'utf8')).pad).toHaveLength(200_000);
        seen++;
        await new Promise((r) => setImmediate(r));
      }
      return seen;
    })();
    await Promise.all(Array.from({ length: 20 }, (_, i) => writeJsonAtomic(file, big(i + 1))));
    writing = false;
    expect(await reads).toBeGreaterThan(0);
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).n).toBeGreaterThan(0);
    expect(leftovers(dir)).toEqual([]);
  });
});

describe('writeFileAtomicSync', () => {
  it('writes owner-only, makes a missing folder, and keeps the old content on failure', () => {
    const file = path.join(dir, 'keys', 'secret.key');
    writeFileAtomicSync(file, 'k1\n');
    expect(fs.readFileSync(file, 'utf8')).toBe('k1\n');
    expect(modeOf(file)).toBe(0o600);
    expect(modeOf(path.dirname(file))).toBe(0o700);
    writeFileAtomicSync(file, 'k2\n');
    expect(fs.readFileSync(file, 'utf8')).toBe('k2\n');
    fs.mkdirSync(path.join(dir, 'taken'));
    expect(() => writeFileAtomicSync(path.join(dir, 'taken'), 'x')).toThrow();
    expect(leftovers(dir)).toEqual([]);
    expect(leftovers(path.dirname(file))).toEqual([]);
  });
});
