// The CST visitor: gives each line its meaning (component, table word, patch, group, theme) and keeps ids and groups.
import type { CstNode, IToken } from 'chevrotain';
import { componentOf } from './catalog/index.js';
import { readComponentArgs } from './component-args.js';
import type { ParseError } from './errors.js';
import { LineFault } from './fault.js';
import { BaseVisitor } from './grammar.js';
import { ID_PATTERN, RESERVED_ID } from './names.js';
import type { Op } from './ops.js';
import { readPatch } from './patch.js';
import { readQuery } from './query.js';
import { readPutLine, readTableLine } from './table-words.js';
import { type Term, termOf } from './terms.js';
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
  private lineStarts: number[] = [0];
  private cursor = 0;
  private result: VisitResult = { ops: [], errors: [], spans: [] };
  private options: VisitOptions = {};
  private ids = new Set<string>();
  private presets = new Map<string, { preset: string; props: Record<string, unknown> }>();
  private counter = 1;
  private groups = 1;
  private openGroup: string | undefined;
  private fenced = false;
  private inFence: 'svc' | 'other' | undefined;

  constructor() {
    super();
    this.validateVisitor();
  }

  run(cst: CstNode, source: string, options: VisitOptions): VisitResult {
    this.source = source;
    this.lineStarts = lineStartsOf(source);
    this.cursor = 0;
    this.result = { ops: [], errors: [], spans: [] };
    this.options = options;
    this.ids = new Set();
    this.presets = new Map();
    this.counter = options.idStart ?? 1;
    this.groups = 1;
    this.openGroup = undefined;
    this.fenced = /^[ \t]*```[ \t]*(?:svc|tables)\b/m.test(source);
    this.inFence = undefined;
    this.visit(cst);
    return this.result;
  }

  document(ctx: { line?: CstNode[] }): void {
    for (const line of ctx.line ?? []) this.visit(line);
  }

  line(ctx: { term?: CstNode[] }): void {
    const terms = (ctx.term ?? []).map((node) => termOf(node.children.Atom as IToken[]));
    if (terms.length === 0) return;
    const head = terms[0]!;
    if (head.tokens[0]!.tokenType.name === 'Fence') {
      this.fence(head);
      return;
    }
    if (this.fenced ? this.inFence !== 'svc' : this.inFence !== undefined) return;
    const lineNo = this.lineOf(head.start);
    try {
      const op = this.readLine(head, terms.slice(1));
      if (op) {
        this.result.ops.push(op);
        const start = this.lineStarts[lineNo - 1]!;
        this.result.spans.push({
          line: lineNo,
          text: this.source.slice(start, lineEndOf(this.source, start)),
        });
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
      const column = fault.offset - this.lineStarts[this.lineOf(fault.offset) - 1]! + 1;
      this.result.errors.push({
        code: fault.code,
        line: lineNo,
        column,
        message: `line ${lineNo}: ${fault.message}`,
      });
    }
  }

  term(): void {}

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
    if (first.tokenType.name === 'At' && head.tokens.length === 1) {
      const id = this.checkId(name.slice(1), first.startOffset);
      return readPatch(id, args, source, head.end, this.presets.get(id));
    }
    const quoteAt = [head, ...args].flatMap((t) => t.tokens).find((t) => t.tokenType.name === 'OpenQuote');
    if (quoteAt && name !== 'text' && name !== 'math') {
      throw new LineFault(
        'UNTERMINATED_QUOTE',
        quoteAt.startOffset,
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
        const op = readGroupLine(
          this.claimId(explicitId, at, () => `g${this.groups}`),
          args,
          source,
        );
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
    const id = this.claimId(explicitId, at, () => `n${this.counter}`);
    this.counter++;
    this.presets.set(id, { preset: name, props });
    const op: Op = { op: 'add', preset: name, id, props };
    if (this.openGroup !== undefined) op.group = this.openGroup;
    return op;
  }

  private checkId(id: string, offset: number): string {
    if (!ID_PATTERN.test(id)) {
      throw new LineFault(
        'BAD_ID',
        offset,
        `@${id} is not a valid id: start with a letter, then letters, digits, _ or - (at most 32), like @lunch`,
      );
    }
    return id;
  }

  private claimId(explicit: string | undefined, at: IToken | undefined, auto: () => string): string {
    let id = auto();
    if (explicit !== undefined) {
      id = this.checkId(explicit, at!.startOffset);
      if (RESERVED_ID.test(id)) {
        throw new LineFault(
          'RESERVED_ID',
          at!.startOffset,
          `@${id} looks like an automatic id (n1, g1, ...); pick a name like @lunch`,
        );
      }
    }
    // Automatic ids are positional, so a written id can never take one (RESERVED_ID); only written ids can clash.
    if (this.ids.has(id)) {
      throw new LineFault(
        'DUPLICATE_ID',
        at?.startOffset ?? 0,
        `@${id} is used twice; every id on a screen must be different`,
      );
    }
    this.ids.add(id);
    return id;
  }

  private lineOf(offset: number): number {
    const starts = this.lineStarts;
    if (this.cursor >= starts.length || starts[this.cursor]! > offset) this.cursor = 0;
    while (this.cursor + 1 < starts.length && starts[this.cursor + 1]! <= offset) this.cursor++;
    return this.cursor + 1;
  }
}

function lineStartsOf(source: string): number[] {
  const starts = [0];
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13) {
      if (source.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}

function lineEndOf(source: string, start: number): number {
  for (let i = start; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 10 || c === 13) return i;
  }
  return source.length;
}

/** The one visitor instance (its state is reset per run; parse is synchronous, so runs never overlap). */
export const visitor = new LinesVisitor();
