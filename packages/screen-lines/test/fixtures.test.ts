// Fixture folders: fixtures/<case>/input.screen with expected ops (ops.json); fixtures/_error_/<case>/ with errors.json.
// Run with SCREEN_LINES_WRITE_FIXTURES=1 to write missing expected files (then read them before committing).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, test } from 'vitest';
import { catalog, format, PARSE_ERROR_CODES, parse } from '../src/index.js';

const root = join(import.meta.dirname, 'fixtures');
const write = process.env.SCREEN_LINES_WRITE_FIXTURES === '1';
const casesIn = (dir: string) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== '_error_')
    .map((d) => d.name);

function expected(file: string, actual: unknown): unknown {
  if (!existsSync(file) && write) writeFileSync(file, `${JSON.stringify(actual, null, 2)}\n`);
  return JSON.parse(readFileSync(file, 'utf8'));
}

const valid = casesIn(root);
const invalid = casesIn(join(root, '_error_'));

describe('valid fixtures', () => {
  test.each(valid)('%s', (name) => {
    const dir = join(root, name);
    const result = parse(readFileSync(join(dir, 'input.screen'), 'utf8'), { screen: 's1' });
    expect(result.errors).toEqual([]);
    expect(result.ops).toEqual(expected(join(dir, 'ops.json'), result.ops));
    expect(parse(format(result.ops), { screen: 's1' }).ops).toStrictEqual(result.ops);
  });

  test('every component has a fixture that draws it', () => {
    const drawn = new Set(
      valid.flatMap((name) =>
        parse(readFileSync(join(root, name, 'input.screen'), 'utf8')).ops.flatMap((op) =>
          op.op === 'add' ? [op.preset] : [],
        ),
      ),
    );
    expect([...drawn].sort()).toEqual(Object.keys(catalog).sort());
  });
});

describe('error fixtures', () => {
  test.each(invalid)('%s', (name) => {
    const dir = join(root, '_error_', name);
    const { errors } = parse(readFileSync(join(dir, 'input.screen'), 'utf8'));
    expect(errors.length).toBeGreaterThan(0);
    expect(errors).toEqual(expected(join(dir, 'errors.json'), errors));
  });

  test('every error code but INTERNAL_ERROR has a fixture named after it', () => {
    const named = invalid.map((name) => name.toUpperCase().replaceAll('-', '_')).sort();
    expect(named).toEqual(PARSE_ERROR_CODES.filter((code) => code !== 'INTERNAL_ERROR').sort());
    for (const name of invalid) {
      const { errors } = parse(readFileSync(join(root, '_error_', name, 'input.screen'), 'utf8'));
      expect(errors.map((e) => e.code)).toContain(name.toUpperCase().replaceAll('-', '_'));
    }
  });
});

describe('line breaks', () => {
  test('every fixture, valid or not, gives the same answer with CRLF and with CR line breaks', () => {
    for (const dir of [...valid.map((n) => join(root, n)), ...invalid.map((n) => join(root, '_error_', n))]) {
      const text = readFileSync(join(dir, 'input.screen'), 'utf8');
      const answer = parse(text, { screen: 's1' });
      for (const other of [text.replace(/\r?\n/g, '\r\n'), text.replace(/\r?\n/g, '\r')]) {
        const again = parse(other, { screen: 's1' });
        if (isDeepStrictEqual(again, answer)) continue;
        expect(again, dir).toStrictEqual(answer);
        throw new Error(`${dir}: the answers differ in a -0 or a prototype`);
      }
    }
  });
});
