// parse(text): Screen Lines to ops, errors as data; one pass over the text that scans and reads each line in turn.

import type { ParseError } from './errors.js';
import { ScreenLinesError } from './errors.js';
import type { Op } from './ops.js';
import { LineReader } from './reader.js';

/** Options of {@link parse}. */
export interface ParseOptions {
  /** Copied onto table, put and drop ops as `screen`. */
  screen?: string;
  /** First automatic id number: components get `n<idStart>`, `n<idStart+1>`, ... (default 1). */
  idStart?: number;
}

/** What {@link parse} returns: `spans[i]` is the source line (1-based) and text of `ops[i]`. */
export interface ParseResult {
  ops: Op[];
  errors: ParseError[];
  spans: { line: number; text: string }[];
}

/**
 * Parses Screen Lines into typed ops. Never throws for any string: refused lines come back in `errors`
 * (code, line, column and a message a model can act on) and produce no op.
 *
 * @example
 * ```ts
 * const { ops, errors } = parse('timer 5m Stretch\nchoose@lunch "Lunch?" Soup|Salad|Pizza');
 * ops[0]; // { op: 'add', preset: 'timer', id: 'n1', props: { seconds: 300, label: 'Stretch' } }
 * ops[1]; // { op: 'add', preset: 'choose', id: 'lunch', props: { question: 'Lunch?', options: ['Soup', 'Salad', 'Pizza'], multi: false } }
 * errors; // []
 * ```
 */
export function parse(text: string, options: ParseOptions = {}): ParseResult {
  if (typeof text !== 'string') throw new ScreenLinesError('INVALID_ARGUMENT', 'parse(text) takes a string');
  const idStart = options.idStart ?? 1;
  if (!Number.isInteger(idStart) || idStart < 1) {
    throw new ScreenLinesError(
      'INVALID_ARGUMENT',
      'parse options.idStart must be a whole number of at least 1',
    );
  }
  try {
    return new LineReader(text, { ...options, idStart }).read();
  } catch (error) {
    // The reader catches per line; this is a last guard.
    return {
      ops: [],
      errors: [
        {
          code: 'INTERNAL_ERROR',
          line: 1,
          column: 1,
          message: `line 1: could not read the lines (${String(error)})`,
        },
      ],
      spans: [],
    };
  }
}
