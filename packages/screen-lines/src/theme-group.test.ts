// Tests of theme-group: behaviour through the public functions, with real inputs.
import { describe, expect, test } from 'vitest';
import { parse } from './parse.js';

describe('theme lines', () => {
  test('a look object with style words nested', () => {
    expect(parse('theme preset=ocean accent=#3366FF radius=round buttons=stack screen=chat').ops).toEqual([
      {
        op: 'theme',
        look: {
          preset: 'ocean',
          accent: '#3366FF',
          radius: 'round',
          style: { buttons: 'stack', screen: 'chat' },
        },
      },
    ]);
  });

  test.each([
    ['theme', /needs <key>=<value>/],
    ['theme colour=red', /keys preset, radius/],
    ['theme bg=#12345', /#RRGGBB/],
    ['theme gallery=wall', /row, feed, row3d, grid/],
    ['theme by=robot', /agent or user/],
    ['theme at=yesterday', /ISO 8601/],
    ['theme font="two words"', /one look word/],
  ])('%s is refused', (line, message) => {
    const [error] = parse(line).errors;
    expect(error?.code).toBe('INVALID_THEME');
    expect(error?.message).toMatch(message);
  });

  test('a theme line does not count as a component and does not end a group', () => {
    expect(
      parse('group\ntext a\ntheme font=serif\ntext b').ops.map((op) => ('group' in op ? op.group : op.op)),
    ).toEqual(['group', 'g1', 'theme', 'g1']);
  });
});

describe('groups', () => {
  test('a new group ends the open one; end closes it; later lines are outside', () => {
    const ops = parse('group row\ntext a\ngroup@b card "B side"\ntext b\nend\ntext c').ops;
    expect(ops).toEqual([
      { op: 'group', id: 'g1', layout: 'row' },
      { op: 'add', preset: 'text', id: 'n1', props: { text: 'a' }, group: 'g1' },
      { op: 'group', id: 'b', layout: 'card', title: 'B side' },
      { op: 'add', preset: 'text', id: 'n2', props: { text: 'b' }, group: 'b' },
      { op: 'end', id: 'b' },
      { op: 'add', preset: 'text', id: 'n3', props: { text: 'c' } },
    ]);
  });

  test('group and component ids share one namespace', () => {
    expect(parse('group@x\ntext@x hi').errors[0]?.code).toBe('DUPLICATE_ID');
  });

  test('end takes nothing', () => {
    expect(parse('group\nend now').errors[0]?.code).toBe('UNEXPECTED_ARGUMENT');
  });
});

describe('patch lines', () => {
  test('typed values; the preset is named when the component is in the same text', () => {
    expect(parse('@n4 value=7 done=off items=a|"b c" label=').ops).toEqual([
      { op: 'patch', id: 'n4', props: { value: 7, done: false, items: ['a', 'b c'], label: null } },
    ]);
    expect(parse('stat 1 Steps\n@n1 value=2').ops[1]).toEqual({
      op: 'patch',
      id: 'n1',
      preset: 'stat',
      props: { value: 2 },
    });
  });

  test('patch lines do not count as components', () => {
    expect(parse('text a\n@n1 text=b\ntext c').ops.map((op) => (op as { id: string }).id)).toEqual([
      'n1',
      'n1',
      'n2',
    ]);
  });

  test.each([
    ['@x', 'PATCH_NEEDS_PROPS'],
    ['@x hello', 'UNEXPECTED_ARGUMENT'],
    ['@x a=1 a=2', 'REPEATED_SETTING'],
    ['@9 a=1', 'INVALID_ID'],
    ['timer@t 5m Tea\n@t colour=red', 'UNKNOWN_PROP'],
  ])('%s is refused with %s', (text, code) => {
    expect(parse(text).errors.map((e) => e.code)).toEqual([code]);
  });
});
