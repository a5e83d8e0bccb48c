// A refusal raised while reading one line; the visitor turns it into a ParseError with line and column.
import type { ParseErrorCode } from './errors.js';

/** Internal: thrown inside line readers, always caught by the visitor (never escapes `parse`). */
export class LineFault {
  constructor(
    readonly code: ParseErrorCode,
    readonly offset: number,
    readonly message: string,
  ) {}
}

/** Refuses the current line. `message` has no `line N:` prefix; the visitor adds it. */
export function fail(code: ParseErrorCode, offset: number, message: string): never {
  throw new LineFault(code, offset, message);
}
