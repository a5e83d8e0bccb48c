// Tests of format: behaviour through the public functions, with real inputs.
import { describe, expect, test } from 'vitest';
import { ScreenLinesError } from './errors.js';
import { format } from './format.js';
import type { Op } from './ops.js';
import { parse } from './parse.js';

const roundTrip = (ops: Op[]) => expect(parse(format(ops)).ops).toStrictEqual(ops);

describe('format', () => {
  test('prints the canonical forms', () => {
    const { ops } = parse(
      'timer 300s Stretch\nchoose@lunch Lunch? Soup | Salad\nput t k A=1 +B\nquery t as chart bar min=0 Title here',
    );
    expect(format(ops)).toBe(
      [
        'timer 5m Stretch',
        'choose@lunch "Lunch?" Soup|Salad',
        'put t k A=1 B=on',
        'query t as chart bar min=0 "Title here"',
      ].join('\n'),
    );
  });

  test('quotes text that would read differently bare', () => {
    const ops: Op[] = [
      { op: 'add', preset: 'timer', id: 'n1', props: { seconds: 60, label: 'a=b | "c" +d' } },
      {
        op: 'add',
        preset: 'choose',
        id: 'n2',
        props: {
          question: 'Q "x"\\y',
          options: ['on', '42', 'two words', 'a|b', 'line\nbreak'],
          multi: true,
        },
      },
      {
        op: 'put',
        table: 't',
        key: '2026-11-21',
        values: {
          A: { kind: 'text', value: 'today' },
          B: { kind: 'text', value: '' },
          C: { kind: 'text', value: '-x' },
          D: { kind: 'number', value: 1.5, text: '1.50' },
        },
      },
      { op: 'patch', id: 'x', props: { a: 'on', b: true, c: null, d: ['1', ''], e: -0 } },
    ];
    roundTrip(ops);
  });

  test('groups, ends, themes and drops print one per line', () => {
    const text = 'group@g row Title\ntext hi\nend\ntheme accent=#112233 chart=pie\ntable drop t';
    const { ops } = parse(text);
    expect(format(ops)).toBe('group@g row Title\ntext hi\nend\ntheme accent=#112233 chart=pie\ntable drop t');
    roundTrip(ops);
  });

  test('misuse throws', () => {
    expect(() => format('x' as never)).toThrow(ScreenLinesError);
    expect(() => format([{ op: 'add', preset: 'nope', id: 'n1', props: {} }])).toThrow(/unknown preset/);
    expect(() => format([{ op: 'weird' } as never])).toThrow(ScreenLinesError);
  });
});
