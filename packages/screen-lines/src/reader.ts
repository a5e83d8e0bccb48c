// The line reader: scans the text line by line and gives each line its meaning (component, table word, patch, group,
// theme), keeping ids and groups. One pass, no token array for the whole text and no syntax tree.
import { componentOf } from './catalog/index.js';
import { readComponentArgs } from './component-args.js';
import type { ParseError } from './errors.js';
import { LineFault } from './fault.js';
import { ID_PATTERN, RESERVED_ID } from './names.js';
import type { AddOp, Op } from './ops.js';
import { readPatch } from './patch.js';
import { readQuery } from './query.js';
import { isSpace, newToken, scanPlainWord, scanToken, type Token } from './scan.js';
import { readPutLine, readTableLine } from './table-words.js';
import type { Term } from './terms.js';
import { readGroupLine, readTheme } from './theme-group.js';
import { checkProps, unknownComponent } from './validate.js';

/** Options of one read. */
export interface ReadOptions {
  screen?: string;
  idStart?: number;
}

/** What one read produced. */
export interface ReadResult {
  ops: Op[];
  errors: ParseError[];
  spans: { line: number; text: string }[];
}

// Token objects are reused from line to line (they were most of what a parse allocated): nothing a line reader
// returns or keeps holds a token (ops hold strings and numbers), and parse is synchronous, so one set serves every
// call. Terms are not: reusing their arrays (`length = 0`, then push) cost more than allocating them.
const TOKENS: Token[] = [];

/** The arguments of a line with none (readers only read their terms). */
const NO_TERMS: Term[] = Object.freeze([]) as unknown as Term[];

const SVC_FENCE = /^```[ \t]*(?:svc|tables)\b/;

/** Reads one text; a new reader per text, so no state outlives a call. */
export class LineReader {
  private readonly ops: Op[] = [];
  private readonly errors: ParseError[] = [];
  /**
   * Line number, start and end offset of each op's line, three numbers an op (see {@link withSpans}), in a typed
   * array: past 64 bytes its store lies outside the JS heap, so the collector never copies it while a long text is
   * read, and growing it leaves no list of boxed slots behind.
   */
  private where = new Int32Array(15);
  private whereLength = 0;
  /** Ids written with `@`; automatic ids are unique by construction and never written (RESERVED_ID). */
  private readonly written = new Set<string>();
  private readonly byId = new Map<string, AddOp>();
  private indexed = 0;
  private counter: number;
  private groups = 1;
  private openGroup: string | undefined;
  private readonly fenced: boolean;
  private inFence: 'svc' | 'other' | undefined;

  constructor(
    private readonly source: string,
    private readonly options: ReadOptions,
  ) {
    this.counter = options.idStart ?? 1;
    this.fenced = source.includes('```') && /^[ \t]*```[ \t]*(?:svc|tables)\b/m.test(source);
  }

  /**
   * Reads every line and returns what they produced. Lines are cut at \r\n, \r or \n; whitespace between tokens
   * is skipped, and adjacent tokens form one term.
   */
  read(): ReadResult {
    const text = this.source;
    const length = text.length;
    let at = 0;
    let lineNo = 1;
    // The most tokens a line of this text had: only those pooled tokens point into it afterwards.
    let mostTokens = 0;
    for (;;) {
      const lineStart = at;
      let tokenCount = 0;
      let termCount = 0;
      // The open term: its first token's index in TOKENS, and its start and end offsets.
      let first = 0;
      let start = -1;
      let end = -1;
      let c = 0;
      while (at < length) {
        c = text.charCodeAt(at);
        if (c === 10 || c === 13) break;
        if (isSpace(c)) {
          at++;
          continue;
        }
        let token = TOKENS[tokenCount];
        if (token === undefined) {
          token = newToken();
          TOKENS.push(token);
        }
        let next = scanPlainWord(text, at, length, token);
        if (next < 0) next = scanToken(text, at, length, token);
        if (end !== at) {
          if (start >= 0) termCount = closeTerm(termCount, first, tokenCount, start, end);
          first = tokenCount;
          start = at;
        }
        tokenCount++;
        end = next;
        at = next;
      }
      if (tokenCount > mostTokens) mostTokens = tokenCount;
      if (start >= 0) {
        termCount = closeTerm(termCount, first, tokenCount, start, end);
        this.line(LINE_TERMS[0]!, lineArgs(termCount), lineNo, lineStart, at);
      }
      if (at >= length) {
        // A token's image may be a slice that keeps the whole source alive; let it go with the call.
        if (TOKENS.length > KEPT_IN_POOL) TOKENS.length = KEPT_IN_POOL;
        if (LINE_TERMS.length > KEPT_IN_POOL) LINE_TERMS.length = KEPT_IN_POOL;
        // (Clearing the whole pool cost a 10-line text as much as reading one of its lines.)
        const used = Math.min(mostTokens, TOKENS.length);
        for (let i = 0; i < used; i++) TOKENS[i]!.source = '';
        return withSpans(this.ops, this.errors, text, this.where, this.whereLength);
      }
      at += c === 13 && text.charCodeAt(at + 1) === 10 ? 2 : 1;
      lineNo++;
    }
  }

  private line(head: Term, args: Term[], lineNo: number, lineStart: number, lineEnd: number): void {
    if (head.tokens[0]!.type === 'Fence') {
      this.fence(head);
      return;
    }
    if (this.fenced ? this.inFence !== 'svc' : this.inFence !== undefined) return;
    try {
      const op = this.readLine(head, args);
      if (op) {
        this.ops.push(op);
        this.placed(lineNo, lineStart, lineEnd);
      }
    } catch (error) {
      const fault =
        error instanceof LineFault
          ? error
          : new LineFault(
              'INTERNAL_ERROR',
              head.start,
              `could not read this line (${String(error)}); please report it`,
            );
      const column = Math.max(1, fault.offset - lineStart + 1);
      this.errors.push({
        code: fault.code,
        line: lineNo,
        column,
        message: `line ${lineNo}: ${fault.message}`,
      });
    }
  }

  /** Records where the op just pushed came from. */
  private placed(lineNo: number, lineStart: number, lineEnd: number): void {
    let where = this.where;
    const n = this.whereLength;
    if (n + 3 > where.length) {
      const grown = new Int32Array(where.length * 2 + 3);
      grown.set(where);
      this.where = where = grown;
    }
    where[n] = lineNo;
    where[n + 1] = lineStart;
    where[n + 2] = lineEnd;
    this.whereLength = n + 3;
  }

  private fence(head: Term): void {
    const image = head.tokens[0]!.image;
    if (this.inFence !== undefined) {
      if (/^```\s*$/.test(image)) this.inFence = undefined;
      return;
    }
    this.inFence = SVC_FENCE.test(image) ? 'svc' : 'other';
  }

  private readLine(head: Term, args: Term[]): Op | undefined {
    const first = head.tokens[0]!;
    const name = first.image;
    const at = head.tokens[1];
    const source = this.source;
    if (first.type === 'At' && head.tokens.length === 1) {
      const id = this.checkId(name.slice(1), first.startOffset);
      return readPatch(id, args, source, head.end, this.earlier(id));
    }
    // Only a quote that runs to the end of the line can be unclosed, so the last token is the one to check.
    const lastTerm = args.length > 0 ? args[args.length - 1]! : head;
    const last = lastTerm.tokens[lastTerm.tokens.length - 1]!;
    if (last.type === 'OpenQuote' && name !== 'text' && name !== 'math') {
      throw new LineFault(
        'UNTERMINATED_QUOTE',
        last.startOffset,
        'this quote never closes; end it with " (write \\" for a quote inside quotes)',
      );
    }
    if (head.tokens.length > 2 || (at && at.type !== 'At')) {
      return unknownComponent(source.slice(head.start, head.end), head.start);
    }
    const explicitId = at ? at.image.slice(1) : undefined;
    switch (name) {
      case 'table':
      case 'put': {
        noId(at, name);
        const op =
          name === 'table' ? readTableLine(args, source, head.end) : readPutLine(args, source, head.end);
        if (this.options.screen !== undefined) op.screen = this.options.screen;
        return op;
      }
      case 'theme':
        noId(at, 'theme');
        return readTheme(args, source, head.end);
      case 'end': {
        noId(at, 'end');
        if (args[0])
          throw new LineFault(
            'UNEXPECTED_ARGUMENT',
            args[0].start,
            'end takes nothing: it closes the open group',
          );
        if (this.openGroup === undefined)
          throw new LineFault(
            'END_WITHOUT_GROUP',
            head.start,
            'end has no open group to close; remove it or open one with group',
          );
        const id = this.openGroup;
        this.openGroup = undefined;
        return { op: 'end', id };
      }
      case 'group': {
        const op = readGroupLine(this.claimId(explicitId, at, 'g', this.groups), args, source);
        // Counters move only for lines that land, so ids do not depend on refused lines (format round-trips).
        this.groups++;
        this.openGroup = op.id;
        return op;
      }
    }
    const spec = componentOf(name);
    if (!spec) return unknownComponent(name, first.startOffset);
    const props =
      name === 'query'
        ? (readQuery(args, source, head.end) as unknown as Record<string, unknown>)
        : checkProps(spec, readComponentArgs(spec, args, source), head.start);
    const id = this.claimId(explicitId, at, 'n', this.counter);
    this.counter++;
    // The catalog's own name string: the same text as the line word, without keeping a fresh copy per op.
    const op: Op = { op: 'add', preset: spec.name, id, props };
    if (this.openGroup !== undefined) op.group = this.openGroup;
    return op;
  }

  private checkId(id: string, offset: number): string {
    if (!ID_PATTERN.test(id)) {
      throw new LineFault(
        'INVALID_ID',
        offset,
        `@${id} is not a valid id: start with a letter, then letters, digits, _ or - (at most 32), like @lunch`,
      );
    }
    return id;
  }

  private claimId(
    explicit: string | undefined,
    at: Token | undefined,
    prefix: string,
    position: number,
  ): string {
    if (explicit === undefined) return autoId(prefix, position);
    const id = this.checkId(explicit, at!.startOffset);
    if (RESERVED_ID.test(id)) {
      throw new LineFault(
        'RESERVED_ID',
        at!.startOffset,
        `@${id} looks like an automatic id (n1, g1, ...); pick a name like @lunch`,
      );
    }
    if (this.written.has(id)) {
      throw new LineFault(
        'DUPLICATE_ID',
        at!.startOffset,
        `@${id} is used twice; every id on a screen must be different`,
      );
    }
    this.written.add(id);
    return id;
  }

  /**
   * The component written earlier in this text under `id`, if any. The index is built lazily, only once a patch
   * line asks, and extended as it goes (linear overall, and free for screens without patches).
   */
  private earlier(id: string): AddOp | undefined {
    const ops = this.ops;
    for (; this.indexed < ops.length; this.indexed++) {
      const op = ops[this.indexed]!;
      if (op.op === 'add') this.byId.set(op.id, op);
    }
    return this.byId.get(id);
  }
}

/**
 * The result, its `spans` made on first read. Only the tables path reads spans, and a span object and a string an op
 * were a third of the objects a result kept (and the young-generation collector copied while a long text was read).
 * Read, the property is the same plain array the reference built, and it stays: later reads and JSON see one value.
 */
function withSpans(
  ops: Op[],
  errors: ParseError[],
  source: string,
  where: Int32Array,
  length: number,
): ReadResult {
  const result = { ops, errors } as ReadResult;
  let spans: ReadResult['spans'] | undefined;
  Object.defineProperty(result, 'spans', {
    enumerable: true,
    configurable: true,
    get() {
      if (spans === undefined) {
        spans = new Array(length / 3);
        for (let i = 0, k = 0; k < length; i++, k += 3)
          spans[i] = { line: where[k]!, text: source.slice(where[k + 1], where[k + 2]) };
      }
      return spans;
    },
    set(value: ReadResult['spans']) {
      spans = value;
    },
  });
  return result;
}

/**
 * Term objects, reused from line to line like the tokens (LINE_TERMS[k] is the line's k-th term; entries past the
 * line's count are stale and never read). A term's token list is refilled in place when it has the right length
 * (nearly always: most terms are one token), else replaced by one made at its final size (a one-token literal that
 * grows on push reserves 17 slots). Safe for the same reason as TOKENS: no reader keeps a term or its list.
 */
const LINE_TERMS: Term[] = [];

/**
 * Token lists kept for reuse: TERM_LISTS[k][n] is the list of n tokens the k-th term of a line gets. Keyed by length
 * as well as place, a term whose length differs from the term at its place on the line before (`Soup|Salad|Pizza`
 * after `Stretch`) takes a list it had before instead of a new one. Bounded: places and lengths up to
 * {@link REUSED_LIST}.
 */
const TERM_LISTS: Token[][][] = [];
const REUSED_LIST = 64;

/** Ends the term of TOKENS[first..last) at `start`..`end` as LINE_TERMS[count]; returns the new count. */
function closeTerm(count: number, first: number, last: number, start: number, end: number): number {
  const n = last - first;
  let term = LINE_TERMS[count];
  if (term === undefined) {
    term = { tokens: termTokens(first, n), start, end };
    LINE_TERMS.push(term);
    return count + 1;
  }
  term.start = start;
  term.end = end;
  let tokens = term.tokens;
  if (tokens.length !== n) {
    if (count >= REUSED_LIST || n > REUSED_LIST) {
      term.tokens = termTokens(first, n);
      return count + 1;
    }
    let byLength = TERM_LISTS[count];
    if (byLength === undefined) {
      byLength = [];
      TERM_LISTS[count] = byLength;
    }
    // The list it replaces stays under its own length, for the next line whose term there is that long.
    if (tokens.length <= REUSED_LIST && byLength[tokens.length] === undefined)
      byLength[tokens.length] = tokens;
    const kept = byLength[n];
    if (kept === undefined) {
      term.tokens = byLength[n] = termTokens(first, n);
      return count + 1;
    }
    term.tokens = tokens = kept;
  }
  for (let i = 0; i < n; i++) tokens[i] = TOKENS[first + i]!;
  return count + 1;
}

/** `TOKENS.slice(from, from + n)`, as array literals for the short lengths nearly every term has. */
function termTokens(from: number, n: number): Token[] {
  switch (n) {
    case 1:
      return [TOKENS[from]!];
    case 2:
      return [TOKENS[from]!, TOKENS[from + 1]!];
    case 3:
      return [TOKENS[from]!, TOKENS[from + 1]!, TOKENS[from + 2]!];
    default:
      return TOKENS.slice(from, from + n);
  }
}

/**
 * Argument lists by length, reused: ARGS[n] holds a line's n arguments (LINE_TERMS[1..n]), overwritten by the next
 * line of as many arguments. Readers only read them (a reader that must change the list copies it first).
 */
const ARGS: Term[][] = [NO_TERMS];
/** Longest argument list kept for reuse; longer ones (rare) are made for their line. */
const REUSED_ARGS = 32;

/** The line's arguments, LINE_TERMS[1..count). */
function lineArgs(count: number): Term[] {
  const n = count - 1;
  if (n > REUSED_ARGS) return LINE_TERMS.slice(1, count);
  let args = ARGS[n];
  if (args === undefined) {
    while (ARGS.length < n) ARGS.push(LINE_TERMS.slice(1, ARGS.length + 1));
    args = LINE_TERMS.slice(1, count);
    ARGS.push(args);
    return args;
  }
  for (let i = 0; i < n; i++) args[i] = LINE_TERMS[i + 1]!;
  return args;
}

/** Tokens and terms kept for the next parse after a text with very long lines (the pools grow to its longest). */
const KEPT_IN_POOL = 1024;

/** Refuses an @id on a line word that takes none (table, put, theme, end). */
function noId(at: Token | undefined, word: string): void {
  if (at) throw new LineFault('ID_NOT_ALLOWED', at.startOffset, `${word} lines take no @id`);
}

/** Automatic component ids n1..n4096, made once: every screen uses the first few, and a shared string is one less
 * object per op for the collector to copy while the result grows. */
const AUTO_IDS: string[] = [];
const AUTO_ID_CACHE = 4096;

function autoId(prefix: string, position: number): string {
  if (prefix !== 'n' || position > AUTO_ID_CACHE) return `${prefix}${position}`;
  let id = AUTO_IDS[position];
  if (id === undefined) {
    id = `n${position}`;
    AUTO_IDS[position] = id;
  }
  return id;
}
