// parse(text): Screen Lines to ops, errors as data; lexes once, parses with the one parser, gives meaning in the visitor.

import type { ParseError } from './errors.js';
import { ScreenLinesError } from './errors.js';
import { parseDocument } from './grammar.js';
import { lineLexer } from './lexer.js';
import type { Op } from './ops.js';
import { visitor } from './visitor.js';

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
    visitor.begin(text, { ...options, idStart });
    // Long texts are read in chunks of whole lines: lines are independent, and small chunks keep the tokens
    // short-lived (one 10,000-line token array costs more in garbage collection than all the parsing).
    let line = 1;
    for (let start = 0; start < text.length; ) {
      const end = chunkEnd(text, start);
      const source = text.slice(start, end);
      line += visitor.chunk(parseDocument(lineLexer.tokenize(source).tokens).cst, source, line);
      start = end;
    }
    return visitor.end();
  } catch (error) {
    // The grammar accepts every token sequence and the visitor catches per line; this is a last guard.
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

const CHUNK = 8192;

/** End of the chunk starting at `start`: just after the first line break at or past CHUNK characters. */
function chunkEnd(text: string, start: number): number {
  if (text.length - start <= CHUNK) return text.length;
  const at = start + CHUNK;
  const lf = text.indexOf('\n', at);
  const cr = text.indexOf('\r', at);
  if (lf < 0 && cr < 0) return text.length;
  // A CR directly followed by LF is one break (\r\n); otherwise the earliest break ends the chunk.
  const end = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
  return text.charCodeAt(end) === 13 && text.charCodeAt(end + 1) === 10 ? end + 2 : end + 1;
}
