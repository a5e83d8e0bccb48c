// The corpus's line format (ADR 0243): one JSON object a line, `{text, options, result}`, with -0 kept as a
// marker object because JSON would print it as 0 and `parse` answers keep it.

import { isDeepStrictEqual } from 'node:util';
import type { ParseOptions, ParseResult } from '../src/index.js';

/** One recorded input and the answer `parse` must give it. */
export interface CorpusCase {
  text: string;
  options: ParseOptions;
  result: ParseResult;
}

const NEGATIVE_ZERO = '-0';

/** The case as one line of JSON text: key order kept, -0 written as `{"-0":true}`. */
export function encodeCase(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (Object.is(v, -0) ? { [NEGATIVE_ZERO]: true } : v));
}

/** Reads one line back; `{"-0":true}` becomes -0 (no answer holds an object of that one key). */
export function decodeCase(line: string): CorpusCase {
  return JSON.parse(line, (_key, v) =>
    v !== null &&
    typeof v === 'object' &&
    !Array.isArray(v) &&
    Object.keys(v).length === 1 &&
    v[NEGATIVE_ZERO] === true
      ? -0
      : v,
  ) as CorpusCase;
}

/**
 * Whether two answers are the same to a caller: deep-equal with prototypes and -0 (`isDeepStrictEqual`), and
 * the same JSON text, so key order too (callers that print or hash ops see it).
 */
export function sameAnswer(actual: unknown, expected: unknown): boolean {
  return isDeepStrictEqual(actual, expected) && encodeCase(actual) === encodeCase(expected);
}
