// The CST visitor: gives each line its meaning (component, table word, patch, group, theme) and keeps ids and groups.
import type { CstNode, IToken } from 'chevrotain';
import { componentOf } from './catalog/index.js';
import { readComponentArgs } from './component-args.js';
import type { ParseError } from './errors.js';
import { LineFault } from './fault.js';
import { BaseVisitor } from './grammar.js';
import { OpenQuote } from './lexer.js';
import { ID_PATTERN, RESERVED_ID } from './names.js';
import type { AddOp, Op } from './ops.js';
import { readPatch } from './patch.js';
import { readQuery } from './query.js';
import { readPutLine, readTableLine } from './table-words.js';
import { type Term, termsOf } from './terms.js';
import { readGroupLine, readTheme } from './theme-group.js';
import { checkProps, unknownComponent } from './validate.js';

/** Options of one visit. */
export interface VisitOptions {
  screen?: string;
  idStart?: number;
}

/** What one visit produced. */
export interface VisitResult {
  ops: Op[];
  errors: ParseError[];
  spans: { line: number; text: string }[];
}

const SVC_FENCE = /^```[ \t]*(?:svc|tables)\b/;

class LinesVisitor extends BaseVisitor {
  private source = '';
  private result: VisitResult = { ops: [], errors: [], spans: [] };
  private options: VisitOptions = {};
  /** Ids written with `@`; automatic ids are unique by construction and never written (RESERVED_ID). */
  private written = new Set<string>();
  private counter = 1;
  private groups = 1;
  private openGroup: string | undefined;
  private fenced = false;
  private inFence: 'svc' | 'other' | undefined;
  private byId = new Map<string, AddOp>();
  private indexed = 0;
  private lineNo = 1;
  private firstLine = 1;
  private lineStart = 0;
  private lineEnd = 0;

  constructor() {
    super();
    this.validateVisitor();
  }

  /** Starts a parse of `text` (read next as one or more chunks of whole lines). */
  begin(text: string, options: VisitOptions): void {
    this.result = { ops: [], errors: [], spans: [] };
    this.options = options;
    this.written = new Set();
    this.byId = new Map();
    this.indexed = 0;
    this.counter = options.idStart ?? 1;
    this.groups = 1;
    this.openGroup = undefined;
    this.fenced = text.includes('```') && /^[ \t]*```[ \t]*(?:svc|tables)\b/m.test(text);
    this.inFence = undefined;
  }

  /** Reads one chunk of whole lines whose first line is `firstLine` of the text; returns its line breaks. */
  chunk(cst: CstNode, source: string, firstLine: number): number {
    this.source = source;
    this.firstLine = firstLine;
    this.visit(cst);
    return (cst.children.Newline as IToken[] | undefined)?.length ?? 0;
  }

  /** Ends the parse and hands back what it produced. */
  end(): VisitResult {
    const result = this.result;
    this.result = { ops: [], errors: [], spans: [] };
    this.source = '';
    return result;
  }

  /** Walks the lines, tracking line numbers and bounds from the Newline tokens (no second scan of the text). */
  document(ctx: { line?: CstNode[]; Newline?: IToken[] }): void {
    const breaks = ctx.Newline ?? [];
    let k = 0;
    let start = 0;
    for (const line of ctx.line ?? []) {
      const first = (line.children.Atom as IToken[])[0]!.startOffset;
      while (k < breaks.length && breaks[k]!.startOffset < first) {
        start = breaks[k]!.startOffset + breaks[k]!.image.length;
        k++;
      }
      this.lineNo = this.firstLine + k;
      this.lineStart = start;
      this.lineEnd = k < breaks.length ? breaks[k]!.startOffset : this.source.length;
      this.visit(line);
    }
  }

  line(ctx: { Atom: IToken[] }): void {
    const terms = termsOf(ctx.Atom);
    const head = terms[0]!;
    if (head.tokens[0]!.tokenType.name === 'Fence') {
      this.fence(head);
      return;
    }
    if (this.fenced ? this.inFence !== 'svc' : this.inFence !== undefined) return;
    const lineNo = this.lineNo;
    try {
      const op = this.readLine(head, terms);
      if (op) {
        this.result.ops.push(op);
        this.result.spans.push({ line: lineNo, text: this.source.slice(this.lineStart, this.lineEnd) });
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
      const column = Math.max(1, fault.offset - this.lineStart + 1);
      this.result.errors.push({
        code: fault.code,
        line: lineNo,
        column,
        message: `line ${lineNo}: ${fault.message}`,
      });
    }
  }

  private fence(head: Term): void {
    const image = head.tokens[0]!.image;
    if (this.inFence !== undefined) {
      if (/^```\s*$/.test(image)) this.inFence = undefined;
      return;
    }
    this.inFence = SVC_FENCE.test(image) ? 'svc' : 'other';
  }

  private readLine(head: Term, terms: Term[]): Op | undefined {
    const first = head.tokens[0]!;
    const name = first.image;
    const at = head.tokens[1];
    const source = this.source;
    const args = terms.slice(1);
    if (first.tokenType.name === 'At' && head.tokens.length === 1) {
      const id = this.checkId(name.slice(1), first.startOffset);
      return readPatch(id, args, source, head.end, this.earlier(id));
    }
    // Only a quote that runs to the end of the line can be unclosed, so the last token is the one to check.
    const lastTerm = terms[terms.length - 1]!;
    const last = lastTerm.tokens[lastTerm.tokens.length - 1]!;
    if (last.tokenType === OpenQuote && name !== 'text' && name !== 'math') {
      throw new LineFault(
        'UNTERMINATED_QUOTE',
        last.startOffset,
        'this quote never closes; end it with " (write \\" for a quote inside quotes)',
      );
    }
    if (head.tokens.length > 2 || (at && at.tokenType.name !== 'At')) {
      return unknownComponent(source.slice(head.start, head.end), head.start);
    }
    const explicitId = at ? at.image.slice(1) : undefined;
    const noId = (word: string) => {
      if (at) throw new LineFault('ID_NOT_ALLOWED', at.startOffset, `${word} lines take no @id`);
    };
    switch (name) {
      case 'table':
      case 'put': {
        noId(name);
        const op =
          name === 'table' ? readTableLine(args, source, head.end) : readPutLine(args, source, head.end);
        if (this.options.screen !== undefined) op.screen = this.options.screen;
        return op;
      }
      case 'theme':
        noId('theme');
        return readTheme(args, source, head.end);
      case 'end': {
        noId('end');
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
    const op: Op = { op: 'add', preset: name, id, props };
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
    at: IToken | undefined,
    prefix: string,
    position: number,
  ): string {
    if (explicit === undefined) return `${prefix}${position}`;
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
    const ops = this.result.ops;
    for (; this.indexed < ops.length; this.indexed++) {
      const op = ops[this.indexed]!;
      if (op.op === 'add') this.byId.set(op.id, op);
    }
    return this.byId.get(id);
  }
}

/** The one visitor instance (its state is reset per run; parse is synchronous, so runs never overlap). */
export const visitor = new LinesVisitor();
