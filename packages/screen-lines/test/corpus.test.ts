// The recorded answers (ADR 0243): `parse` gives every input of test/corpus/*.ndjson exactly the answer recorded
// for it (ops, spans, errors with codes, messages, lines and columns; prototypes, -0 and key order included).
// The answers were first recorded from the parser before issue 25 (ADR 0120), which this corpus replaces.
// SCREEN_LINES_WRITE_CORPUS=1 records `parse`'s answers instead, after a deliberate change of behaviour: read
// the diff of test/corpus before committing it.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { catalog, PARSE_ERROR_CODES, type ParseResult, parse } from '../src/index.js';
import { type CorpusCase, decodeCase, encodeCase, sameAnswer } from './corpus-codec.js';
import { COMPONENTS } from './generate.js';

const dir = join(import.meta.dirname, 'corpus');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.ndjson'))
  .sort();
const write = process.env.SCREEN_LINES_WRITE_CORPUS === '1';

function casesOf(file: string): CorpusCase[] {
  return readFileSync(join(dir, file), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map(decodeCase);
}

/** Fails with a readable diff when `parse` answers differently from the recorded answer. */
function expectRecorded(c: CorpusCase, actual: ParseResult, where: string): void {
  if (sameAnswer(actual, c.result)) return;
  expect(actual, where).toStrictEqual(c.result);
  expect(encodeCase(actual), `${where}: the key order`).toBe(encodeCase(c.result));
  throw new Error(`${where}: the answers differ in a -0 or a prototype`);
}

describe('parse gives the recorded answers', () => {
  test('the corpus is there: fixtures, generated inputs and arbitrary strings', () => {
    expect(files).toEqual([
      'arbitrary.ndjson',
      'fixtures.ndjson',
      'generated-coverage.ndjson',
      'generated-sample.ndjson',
    ]);
  });

  test.each(files)('%s', (file) => {
    const cases = casesOf(file);
    expect(cases.length).toBeGreaterThan(100);
    let changed = 0;
    const lines = cases.map((c, i) => {
      const actual = parse(c.text, c.options);
      if (write) {
        if (!sameAnswer(actual, c.result)) changed++;
        return encodeCase({ text: c.text, options: c.options, result: actual });
      }
      expectRecorded(c, actual, `${file} line ${i + 1}, input ${JSON.stringify(c.text)}`);
      return '';
    });
    if (write && changed > 0) {
      writeFileSync(join(dir, file), `${lines.join('\n')}\n`);
      console.log(`${file}: ${changed} of ${cases.length} answers recorded anew`);
    }
  });

  test('a different answer is caught: a changed message, a -0 for a 0, another key order', () => {
    const c = decodeCase(
      encodeCase({
        text: 'stat 0 "Zero"\nchoose "Q" a',
        options: {},
        result: parse('stat 0 "Zero"\nchoose "Q" a'),
      }),
    );
    const actual = parse(c.text, c.options);
    expect(sameAnswer(actual, c.result)).toBe(true);
    const op = c.result.ops[0] as { props: Record<string, unknown> };
    expect(op.props.value).toBe(0);

    const zero = structuredClone(c.result);
    (zero.ops[0] as { props: Record<string, unknown> }).props.value = -0;
    expect(sameAnswer(actual, zero)).toBe(false);
    expect(sameAnswer(actual, decodeCase(encodeCase({ ...c, result: zero })).result)).toBe(false);

    const message = structuredClone(c.result);
    message.errors[0]!.message += '.';
    expect(sameAnswer(actual, message)).toBe(false);

    const { ops, errors, spans } = c.result;
    expect(sameAnswer(actual, { errors, ops, spans })).toBe(false);
  });

  test('the corpus reaches every component, prop, table word and error code', () => {
    const kinds = new Set<string>();
    const props = new Set<string>();
    const codes = new Set<string>();
    for (const file of files) {
      for (const { result } of casesOf(file)) {
        for (const op of result.ops) {
          kinds.add(op.op === 'add' ? op.preset : op.op);
          if (op.op === 'add') for (const key of Object.keys(op.props)) props.add(`${op.preset}.${key}`);
        }
        for (const error of result.errors) codes.add(error.code);
      }
    }
    for (const kind of [...COMPONENTS, 'table', 'drop', 'put', 'patch', 'group', 'end', 'theme'])
      expect(kinds.has(kind), kind).toBe(true);
    for (const spec of Object.values(catalog)) {
      // query's props are QueryProps, read by its own reader; its clauses are in generate.ts.
      if (spec.name === 'query') continue;
      const shape = (spec.props as unknown as { shape: Record<string, unknown> }).shape;
      for (const key of Object.keys(shape))
        expect(props.has(`${spec.name}.${key}`), `${spec.name}.${key}`).toBe(true);
    }
    // INTERNAL_ERROR is the guard no input should reach.
    for (const code of PARSE_ERROR_CODES.filter((c) => c !== 'INTERNAL_ERROR'))
      expect(codes.has(code), code).toBe(true);
  });
});
