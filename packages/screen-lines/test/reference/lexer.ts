// Screen Lines tokens: one chevrotain lexer, built once; values are typed here (numbers, dates, today, on/off).
import { createToken, Lexer, type TokenType } from 'chevrotain';

/** Category of every token that can sit inside a term (a run of characters without whitespace). */
export const Atom = createToken({ name: 'Atom', pattern: Lexer.NA });

export const Newline = createToken({ name: 'Newline', pattern: /\r\n|\r|\n/, line_breaks: true });
/** Whitespace inside a line (every JS whitespace but line breaks); skipped: terms are told apart by offsets. */
export const Space = createToken({
  name: 'Space',
  pattern: /[ \t\v\f\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+/,
  group: Lexer.SKIPPED,
});

/**
 * First characters of the catch-all tokens, so chevrotain can keep its first-character optimization
 * (it cannot analyse complement classes like [^\s]). Built once: every UTF-16 unit but whitespace and `excluded`.
 */
function startChars(excluded: string): number[] {
  const codes: number[] = [];
  for (let c = 0; c < 0x10000; c++) {
    const ch = String.fromCharCode(c);
    if (!/\s/.test(ch) && !excluded.includes(ch)) codes.push(c);
  }
  return codes;
}
const WORD_STARTS = startChars('"|=<>!~@+`');

const atom = (config: Parameters<typeof createToken>[0]): TokenType =>
  createToken({ ...config, categories: [Atom] });

/** Any run of characters a bare word may hold; the fallback for the typed tokens below. */
export const Word = atom({ name: 'Word', pattern: /[^\s"|=<>!~@+`]+/, start_chars_hint: WORD_STARTS });
export const Fence = atom({ name: 'Fence', pattern: /```[^\r\n]*/ });
export const Quoted = atom({ name: 'Quoted', pattern: /"(?:[^"\\\r\n]|\\.)*"/ });
/** A quote that never closes on its line: lexed so the visitor can say so, never a lexer failure. */
export const OpenQuote = atom({ name: 'OpenQuote', pattern: /"(?:[^"\\\r\n]|\\.)*\\?/ });
export const Pipe = atom({ name: 'Pipe', pattern: /\|/ });
export const At = atom({ name: 'At', pattern: /@[^\s"|=<>!~@+`]*/ });
export const Op = atom({ name: 'Op', pattern: /!=|>=|<=|=|>|<|~/ });
export const Plus = atom({ name: 'Plus', pattern: /\+/ });
export const DateTime = atom({
  name: 'DateTime',
  pattern: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/,
  longer_alt: Word,
});
export const DateDay = atom({ name: 'DateDay', pattern: /\d{4}-\d{2}-\d{2}/, longer_alt: Word });
export const NumberLit = atom({ name: 'NumberLit', pattern: /-?(?:\d+(?:\.\d+)?|\.\d+)/, longer_alt: Word });
export const Today = atom({ name: 'Today', pattern: /today(?:[+-]\d+)?/, longer_alt: Word });
export const Now = atom({ name: 'Now', pattern: /now/, longer_alt: Word });
export const OnOff = atom({ name: 'OnOff', pattern: /on|off/, longer_alt: Word });
/** Whatever nothing else takes (a lone `!`, a stray backtick): keeps every string lexable. */
export const Other = atom({ name: 'Other', pattern: /[^\s]/, start_chars_hint: startChars('') });

export const allTokens: TokenType[] = [
  Newline,
  Space,
  Fence,
  Quoted,
  OpenQuote,
  Pipe,
  At,
  Op,
  Plus,
  DateTime,
  DateDay,
  NumberLit,
  Today,
  Now,
  OnOff,
  Word,
  Other,
  Atom,
];

/** The one lexer instance; offsets only (lines and columns are computed from Newline tokens). */
export const lineLexer = new Lexer(allTokens, {
  positionTracking: 'onlyOffset',
  ensureOptimizations: true,
});
