// Tests of parse: behaviour through the public functions, with real inputs.
import { describe, expect, test } from 'vitest';
import { ScreenLinesError } from './errors.js';
import { parse } from './parse.js';

describe('parse: the spec examples', () => {
  test('timer 5m Stretch', () => {
    expect(parse('timer 5m Stretch')).toEqual({
      ops: [{ op: 'add', preset: 'timer', id: 'n1', props: { seconds: 300, label: 'Stretch' } }],
      errors: [],
      spans: [{ line: 1, text: 'timer 5m Stretch' }],
    });
  });

  test('choose@lunch "Lunch?" Soup|Salad|Pizza', () => {
    expect(parse('choose@lunch "Lunch?" Soup|Salad|Pizza').ops).toEqual([
      {
        op: 'add',
        preset: 'choose',
        id: 'lunch',
        props: { question: 'Lunch?', options: ['Soup', 'Salad', 'Pizza'], multi: false },
      },
    ]);
  });

  test('automatic ids count components in order; table lines neither count nor take ids', () => {
    const { ops } = parse('text a\nput t X=1\ntext@named b\ntable create t X:number\ntext c');
    expect(ops.map((op) => ('id' in op ? op.id : op.op))).toEqual(['n1', 'put', 'named', 'table', 'n3']);
  });

  test('idStart moves the automatic ids', () => {
    expect(parse('text a\ntext b', { idStart: 4 }).ops.map((op) => (op as { id: string }).id)).toEqual([
      'n4',
      'n5',
    ]);
  });
});

describe('parse: errors are data a model can act on', () => {
  test('choose with one option names the | rule, line and column', () => {
    const { ops, errors } = parse('text hi\nchoose "Lunch?" Soup');
    expect(ops).toHaveLength(1);
    expect(errors).toEqual([
      {
        code: 'TOO_FEW_OPTIONS',
        line: 2,
        column: 17,
        message: expect.stringMatching(/^line 2: choose needs at least two options separated by \|/),
      },
    ]);
  });

  test('every bad line is reported, good lines still parse', () => {
    const { ops, errors } = parse('chooze x\ntimer soon Tea\ntext fine');
    expect(errors.map((e) => [e.code, e.line])).toEqual([
      ['UNKNOWN_COMPONENT', 1],
      ['INVALID_DURATION', 2],
    ]);
    expect(errors[0]!.message).toContain('did you mean choose?');
    expect(ops).toHaveLength(1);
  });

  test('a duplicate id is refused', () => {
    expect(parse('text@a x\ntext@a y').errors[0]).toMatchObject({ code: 'DUPLICATE_ID', line: 2, column: 5 });
  });

  test('misuse throws ScreenLinesError', () => {
    expect(() => parse(42 as unknown as string)).toThrow(ScreenLinesError);
    expect(() => parse('', { idStart: 0 })).toThrow(/idStart/);
  });
});

describe('parse: layout of the text', () => {
  test('blank lines and CRLF are fine; spans keep the original line', () => {
    const { ops, spans } = parse('\r\n  timer 90s Tea  \r\n\r\ndivider');
    expect(ops).toHaveLength(2);
    expect(spans).toEqual([
      { line: 2, text: '  timer 90s Tea  ' },
      { line: 4, text: 'divider' },
    ]);
    expect(ops[0]).toMatchObject({ props: { seconds: 90, label: 'Tea' } });
  });

  test('long texts (read in chunks) keep line numbers, spans, ids, groups and fences across chunks', () => {
    const filler = Array.from(
      { length: 400 },
      (_, i) => `text line ${i + 2} with some words to make it long`,
    );
    const lines = ['group row', ...filler, 'choose "Q" Only', 'text@last end'];
    for (const newline of ['\n', '\r\n', '\r']) {
      const { ops, errors, spans } = parse(lines.join(newline));
      expect(errors).toEqual([expect.objectContaining({ code: 'TOO_FEW_OPTIONS', line: 402 })]);
      expect(spans[401]).toEqual({ line: 403, text: 'text@last end' });
      expect(
        spans
          .slice(1, 401)
          .every((span, i) => span.text === `text line ${i + 2} with some words to make it long`),
      ).toBe(true);
      expect(spans.slice(1, 401).every((span, i) => span.line === i + 2)).toBe(true);
      expect(ops[401]).toEqual({
        op: 'add',
        preset: 'text',
        id: 'last',
        props: { text: 'end' },
        group: 'g1',
      });
      expect(ops[400]).toMatchObject({ id: 'n400', group: 'g1' });
      expect(ops).toHaveLength(402);
      const fenced = parse(['prose', '```svc', ...filler, '```', 'more prose', 'chooze x'].join(newline));
      expect(fenced.errors).toEqual([]);
      expect(fenced.ops).toHaveLength(400);
      expect(fenced.spans[399]!.line).toBe(402);
    }
  });

  test('a reply with a fenced svc block parses only the block', () => {
    const reply = 'Here you go:\n```svc\ntimer 5m Stretch\n```\nSee you.\n```js\nnot lines\n```';
    const { ops, errors } = parse(reply);
    expect(errors).toEqual([]);
    expect(ops).toEqual([
      { op: 'add', preset: 'timer', id: 'n1', props: { seconds: 300, label: 'Stretch' } },
    ]);
  });
});

describe('parse: large inputs stay linear', () => {
  test('20,000 patch lines of unknown ids and a 200 KB line parse in well under five seconds', () => {
    const patches = Array.from({ length: 20_000 }, (_, i) => `@x${i} value=${i}`).join('\n');
    const started = performance.now();
    expect(parse(patches).ops).toHaveLength(20_000);
    const long = parse(`text ${'word '.repeat(40_000)}`);
    expect(long.ops).toEqual([]);
    expect(long.errors[0]?.message).toMatch(/^line 1: text markdown is too long \(at most 2000 characters\)/);
    expect(parse(`choose "${'q'.repeat(200_000)}`).errors[0]?.code).toBe('UNTERMINATED_QUOTE');
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('parse: spans are made when first read', () => {
  test('an own enumerable property in the reference order, the same array on every read, replaceable', () => {
    const result = parse('text a\n\nchooze x\r\ntimer 5m  Stretch  ');
    expect(Object.keys(result)).toEqual(['ops', 'errors', 'spans']);
    expect(JSON.parse(JSON.stringify(result)).spans).toEqual([
      { line: 1, text: 'text a' },
      { line: 4, text: 'timer 5m  Stretch  ' },
    ]);
    expect(result.spans).toBe(result.spans);
    const { spans, ...rest } = result;
    expect(rest).toEqual({ ops: result.ops, errors: result.errors });
    expect(spans).toHaveLength(2);
    result.spans = [];
    expect(result.spans).toEqual([]);
  });

  test('a line of 40,000 words leaves no quadratic pool behind (argument lists are reused up to 32)', () => {
    expect(parse(`text ${'word '.repeat(40_000)}`).errors[0]?.code).toBe('INVALID_VALUE');
    expect(parse(`divider${' x'.repeat(40_000)}`).errors[0]?.code).toBe('UNEXPECTED_ARGUMENT');
  });

  test('a result holds no token or term of the reader, so a later parse cannot change it', () => {
    const first = parse('put weights Day=today-1 Weight=70.5 +Done\nchoose "Lunch?" Soup|Salad');
    const copy = JSON.stringify(first);
    parse('query runs group=Day:week sum=Km +count as stat label="Km this week" good=up\ntext x y z');
    expect(JSON.stringify(first)).toBe(copy);
  });
});
