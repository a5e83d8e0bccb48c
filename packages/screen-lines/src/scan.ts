// Screen Lines tokens, scanned by hand: the same tokens the chevrotain lexer of the reference made, in one pass.
//
// The rules, in the order the reference lexer tried its patterns (first match wins; a typed token that a bare word
// would outrun becomes a Word, chevrotain's longer_alt):
//   Newline \r\n | \r | \n          Space: every other JS whitespace, skipped
//   Fence   ```[^\r\n]*              Quoted "(?:[^"\\\r\n]|\\.)*"    OpenQuote "(?:[^"\\\r\n]|\\.)*\\?
//   Pipe |   At @[^\s"|=<>!~@+`]*    Op != >= <= = > < ~              Plus +
//   DateTime \d{4}-\d{2}-\d{2}T\d{2}:\d{2}   DateDay \d{4}-\d{2}-\d{2}   NumberLit -?(?:\d+(?:\.\d+)?|\.\d+)
//   Today today(?:[+-]\d+)?   Now now   OnOff on|off   Word [^\s"|=<>!~@+`]+   Other: any other single character
// See docs/adr/0120-hand-written-scanner-replaces-chevrotain.md for why this is not chevrotain any more.

/** Names of the tokens (the reference lexer's token type names). */
export type TokenName =
  | 'Newline'
  | 'Fence'
  | 'Quoted'
  | 'OpenQuote'
  | 'Pipe'
  | 'At'
  | 'Op'
  | 'Plus'
  | 'DateTime'
  | 'DateDay'
  | 'NumberLit'
  | 'Today'
  | 'Now'
  | 'OnOff'
  | 'Word'
  | 'Other';

/**
 * One token: its kind, where it starts and ends in the text it was scanned from, and its text as written. The text
 * is cut from the source only when a reader asks for it: most tokens are read by kind and offsets alone, and a
 * slice a token made nearly every line's most frequent allocation.
 */
export class Token {
  type: TokenName = 'Word';
  startOffset = 0;
  /** Offset just after the token. */
  end = 0;
  /** The text scanned (the caller's text during a parse; cleared after it). */
  source = '';

  /** The token's text as written. */
  get image(): string {
    return this.source.slice(this.startOffset, this.end);
  }
}

/** Character classes of the ASCII range: 1 whitespace (not a line break), 2 line break, 4 word character (see 8). */
const ASCII = new Uint8Array(128);
for (let c = 0; c < 128; c++) ASCII[c] = 4;
for (const c of [9, 11, 12, 32]) ASCII[c] = 1;
ASCII[10] = 2;
ASCII[13] = 2;
for (const ch of '"|=<>!~@+`') ASCII[ch.charCodeAt(0)] = 0;
/** 8 marks a word character that no typed token starts with: the token starting there is a plain Word. */
for (let c = 0; c < 128; c++)
  if (ASCII[c] === 4 && !/[0-9.\-tno]/.test(String.fromCharCode(c))) ASCII[c] = 12;

/** JS `\s` outside ASCII (what the reference's `\s` and Space token covered). */
function isWideSpace(c: number): boolean {
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** Whitespace inside a line (every JS whitespace but \r and \n). */
export function isSpace(c: number): boolean {
  return c < 128 ? ASCII[c] === 1 : isWideSpace(c);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** End of the run of word characters starting at `at`. */
function wordEnd(text: string, at: number, length: number): number {
  let j = at;
  while (j < length) {
    const c = text.charCodeAt(j);
    if (c < 128 ? (ASCII[c]! & 4) === 0 : isWideSpace(c)) break;
    j++;
  }
  return j;
}

/** Digits at `at`..`at+count` of `text`. */
function digits(text: string, at: number, count: number): boolean {
  for (let k = 0; k < count; k++) if (!isDigit(text.charCodeAt(at + k))) return false;
  return true;
}

/** Length of `\d{4}-\d{2}-\d{2}` at `at` (10), plus `T\d{2}:\d{2}` (16), or 0. */
function dateLength(text: string, at: number): number {
  if (
    !digits(text, at, 4) ||
    text.charCodeAt(at + 4) !== 45 ||
    !digits(text, at + 5, 2) ||
    text.charCodeAt(at + 7) !== 45 ||
    !digits(text, at + 8, 2)
  )
    return 0;
  if (text.charCodeAt(at + 10) === 84 && digits(text, at + 11, 2) && text.charCodeAt(at + 13) === 58) {
    if (digits(text, at + 14, 2)) return 16;
  }
  return 10;
}

/** Length of `-?(?:\d+(?:\.\d+)?|\.\d+)` at `at`, or 0. */
function numberLength(text: string, at: number, length: number): number {
  let j = at;
  if (text.charCodeAt(j) === 45) j++;
  if (isDigit(text.charCodeAt(j))) {
    while (j < length && isDigit(text.charCodeAt(j))) j++;
    if (text.charCodeAt(j) === 46 && isDigit(text.charCodeAt(j + 1))) {
      j += 2;
      while (j < length && isDigit(text.charCodeAt(j))) j++;
    }
    return j - at;
  }
  if (text.charCodeAt(j) === 46 && isDigit(text.charCodeAt(j + 1))) {
    j += 2;
    while (j < length && isDigit(text.charCodeAt(j))) j++;
    return j - at;
  }
  return 0;
}

/** Length of `today(?:[+-]\d+)?` at `at`, or 0. */
function todayLength(text: string, at: number): number {
  if (!text.startsWith('today', at)) return 0;
  const sign = text.charCodeAt(at + 5);
  if ((sign === 43 || sign === 45) && isDigit(text.charCodeAt(at + 6))) {
    let j = at + 7;
    while (isDigit(text.charCodeAt(j))) j++;
    return j - at;
  }
  return 5;
}

/** True for the characters `.` does not match in a JS regular expression (line terminators). */
function isLineTerminator(c: number): boolean {
  return c === 10 || c === 13 || c === 0x2028 || c === 0x2029;
}

/**
 * Scans a plain Word at `at` when the character there starts one (an ASCII word character that starts no typed
 * token) and returns the offset after it, or -1 for any other token (then {@link scanToken} reads it). Most tokens
 * are plain words; this is the reader's short path past the full scanner's cases.
 */
export function scanPlainWord(text: string, at: number, length: number, into: Token): number {
  const c = text.charCodeAt(at);
  if (c >= 128 || ASCII[c] !== 12) return -1;
  return fill(into, 'Word', text, at, wordEnd(text, at + 1, length));
}

/**
 * Scans one token starting at `at` (a character that is neither whitespace nor a line break) into `into` and returns
 * the offset just after it. `length` is the length of `text`. Filling a given object lets the reader reuse its tokens
 * from line to line: most of what a parse allocated was tokens that lived for one line.
 */
export function scanToken(text: string, at: number, length: number, into: Token): number {
  const c = text.charCodeAt(at);
  switch (c) {
    case 96: // `
      if (text.charCodeAt(at + 1) === 96 && text.charCodeAt(at + 2) === 96) {
        let j = at + 3;
        for (let d = text.charCodeAt(j); j < length && d !== 10 && d !== 13; d = text.charCodeAt(++j));
        return fill(into, 'Fence', text, at, j);
      }
      return fill(into, 'Other', text, at, at + 1);
    case 34: {
      // "
      let j = at + 1;
      while (j < length) {
        const d = text.charCodeAt(j);
        if (d === 34) return fill(into, 'Quoted', text, at, j + 1);
        if (d === 92) {
          // \ followed by anything `.` matches is an escape; before a line end or the text's end it ends the token.
          if (j + 1 < length && !isLineTerminator(text.charCodeAt(j + 1))) {
            j += 2;
            continue;
          }
          return fill(into, 'OpenQuote', text, at, j + 1);
        }
        if (d === 10 || d === 13) break;
        j++;
      }
      return fill(into, 'OpenQuote', text, at, j);
    }
    case 124: // |
      return fill(into, 'Pipe', text, at, at + 1);
    case 64: // @
      return fill(into, 'At', text, at, wordEnd(text, at + 1, length));
    case 33: // !
      return text.charCodeAt(at + 1) === 61
        ? fill(into, 'Op', text, at, at + 2)
        : fill(into, 'Other', text, at, at + 1);
    case 60: // <
    case 62: // >
      return fill(into, 'Op', text, at, text.charCodeAt(at + 1) === 61 ? at + 2 : at + 1);
    case 61: // =
    case 126: // ~
      return fill(into, 'Op', text, at, at + 1);
    case 43: // +
      return fill(into, 'Plus', text, at, at + 1);
  }
  const end = wordEnd(text, at, length);
  const word = end - at;
  let typed = 0;
  let type: TokenName = 'Word';
  if (isDigit(c)) {
    typed = dateLength(text, at);
    if (typed > 0) type = typed === 16 ? 'DateTime' : 'DateDay';
    else {
      typed = numberLength(text, at, length);
      type = 'NumberLit';
    }
  } else if (c === 45 || c === 46) {
    typed = numberLength(text, at, length);
    type = 'NumberLit';
  } else if (c === 116) {
    typed = todayLength(text, at);
    type = 'Today';
  } else if (c === 110) {
    typed = text.startsWith('now', at) ? 3 : 0;
    type = 'Now';
  } else if (c === 111) {
    const d = text.charCodeAt(at + 1);
    typed = d === 110 ? 2 : d === 102 && text.charCodeAt(at + 2) === 102 ? 3 : 0;
    type = 'OnOff';
  }
  // A bare word that runs longer than the typed match wins (chevrotain's longer_alt).
  if (typed === 0 || word > typed) return fill(into, 'Word', text, at, end);
  return fill(into, type, text, at, at + typed);
}

function fill(into: Token, type: TokenName, text: string, start: number, end: number): number {
  into.type = type;
  into.startOffset = start;
  into.end = end;
  into.source = text;
  return end;
}

/** True for the `=` operator token (by offsets and character code: no string is cut to compare). */
export function isEquals(token: Token): boolean {
  return (
    token.type === 'Op' &&
    token.end - token.startOffset === 1 &&
    token.source.charCodeAt(token.startOffset) === 61
  );
}

/** A fresh token object (its fields are overwritten by {@link scanToken}). */
export function newToken(): Token {
  return new Token();
}

/**
 * Every token of `text`, line breaks included as Newline tokens (whitespace skipped). Used where a quoted value is
 * read again as tokens (a quoted `where=` clause).
 */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const length = text.length;
  let at = 0;
  while (at < length) {
    const c = text.charCodeAt(at);
    if (c === 10 || c === 13) {
      const end = c === 13 && text.charCodeAt(at + 1) === 10 ? at + 2 : at + 1;
      const t = newToken();
      fill(t, 'Newline', text, at, end);
      tokens.push(t);
      at = end;
    } else if (isSpace(c)) at++;
    else {
      const t = newToken();
      at = scanToken(text, at, length, t);
      tokens.push(t);
    }
  }
  return tokens;
}
