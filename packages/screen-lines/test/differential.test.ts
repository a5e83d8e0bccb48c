// Differential test: the shipped parser and the frozen reference parser (test/reference) return identical results
// (ops, spans, errors with codes, messages, lines and columns) on every fixture and on 100,000 generated inputs.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { catalog, PARSE_ERROR_CODES, parse } from '../src/index.js';
import { COMPONENTS, input } from './generate.js';
import { parse as reference } from './reference/parse.js';

/**
 * Generated inputs per run: 100,000 in `npm test` (issue 25). SCREEN_LINES_DIFF_RUNS=5000 gives a quick run while
 * working on the parser; the full count is what proves the claim.
 */
const RUNS = Number(process.env.SCREEN_LINES_DIFF_RUNS ?? 100_000);
/** Generous: the machines this runs on are shared, and a slow run is not a wrong one. */
const TIMEOUT = 20 * 60_000;

const fixtures = join(import.meta.dirname, 'fixtures');
const screens = readdirSync(fixtures, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.screen'))
  .map((file) => readFileSync(join(fixtures, file), 'utf8'));

/** Runs both parsers on one input; `options` become undefined fields when not given, as callers pass them. */
function same(text: string, options: { screen?: string | null; idStart?: number } = {}): void {
  const opts = { idStart: options.idStart, ...(options.screen ? { screen: options.screen } : {}) };
  const actual = parse(text, opts);
  const expected = reference(text, opts);
  // isDeepStrictEqual is the fast check (vitest's matcher cost more than both parsers); the JSON text adds key order,
  // which callers that print or hash ops see. Only a difference goes through expect, for its readable diff.
  if (isDeepStrictEqual(actual, expected) && JSON.stringify(actual) === JSON.stringify(expected)) return;
  expect(actual).toStrictEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}

describe('the shipped parser and the reference parser agree', () => {
  test('on every fixture (valid and _error_), as written and with screen and idStart', () => {
    expect(screens.length).toBeGreaterThan(60);
    for (const text of screens) {
      same(text);
      same(text, { screen: 's1', idStart: 7 });
      // The same lines with every other kind of line break.
      same(text.replace(/\r?\n/g, '\r\n'));
      same(text.replace(/\r?\n/g, '\r'));
    }
  });

  test(
    `on ${RUNS.toLocaleString('en-US')} generated inputs (valid and broken lines of every kind)`,
    () => {
      fc.assert(
        fc.property(input, ({ text, options }) => same(text, options)),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  test('on arbitrary strings, including lone surrogates and control characters', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 120 }), fc.string({ unit: 'binary', maxLength: 60 })),
        (text) => same(text),
      ),
      { numRuns: 5_000 },
    );
  });

  test('the generated inputs reach every component, prop, table word and error code', () => {
    const kinds = new Set<string>();
    const props = new Set<string>();
    const codes = new Set<string>();
    for (const { text, options } of fc.sample(input, { numRuns: 10_000, seed: 25 })) {
      const result = parse(text, { idStart: options.idStart });
      for (const op of result.ops) {
        kinds.add(op.op === 'add' ? op.preset : op.op);
        if (op.op === 'add') for (const key of Object.keys(op.props)) props.add(`${op.preset}.${key}`);
      }
      for (const error of result.errors) codes.add(error.code);
    }
    for (const kind of [...COMPONENTS, 'table', 'drop', 'put', 'patch', 'group', 'end', 'theme'])
      expect(kinds.has(kind), kind).toBe(true);
    for (const spec of Object.values(catalog)) {
      // query's props are QueryProps, read by its own reader; its clauses are listed in generate.ts.
      if (spec.name === 'query') continue;
      const shape = (spec.props as unknown as { shape: Record<string, unknown> }).shape;
      for (const key of Object.keys(shape))
        expect(props.has(`${spec.name}.${key}`), `${spec.name}.${key}`).toBe(true);
    }
    // INTERNAL_ERROR is the guard no input should reach (the property test fails if one does).
    for (const code of PARSE_ERROR_CODES.filter((c) => c !== 'INTERNAL_ERROR'))
      expect(codes.has(code), code).toBe(true);
  });
});
