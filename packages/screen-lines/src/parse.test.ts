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
      ['BAD_DURATION', 2],
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

  test('a reply with a fenced svc block parses only the block', () => {
    const reply = 'Here you go:\n```svc\ntimer 5m Stretch\n```\nSee you.\n```js\nnot lines\n```';
    const { ops, errors } = parse(reply);
    expect(errors).toEqual([]);
    expect(ops).toEqual([
      { op: 'add', preset: 'timer', id: 'n1', props: { seconds: 300, label: 'Stretch' } },
    ]);
  });
});
