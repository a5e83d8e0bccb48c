// Tests of query: behaviour through the public functions, with real inputs.
import { describe, expect, test } from 'vitest';
import { parse } from './parse.js';

const props = (line: string) => {
  const result = parse(line);
  expect(result.errors).toEqual([]);
  return (result.ops[0] as { props: Record<string, unknown> }).props;
};

const EMPTY = {
  where: [],
  sort: [],
  cols: [],
  y: [],
  sum: [],
  avg: [],
  min: [],
  max: [],
  count: false,
  as: 'table',
};

describe('query', () => {
  test('a bare query has every list, as table', () => {
    expect(parse('query weights').ops).toEqual([
      { op: 'add', preset: 'query', id: 'n1', props: { table: 'weights', ...EMPTY } },
    ]);
  });

  test('every clause', () => {
    expect(
      props(
        'query@w weights where=Day>=today-7|Note~"a b"|Note=|Tag!=|Weight<80|Weight>60|Weight<=79.5 sort=-Day|Weight limit=7 cols=Day|Weight group=Day:week sum=Weight avg=Weight|Km min=Weight max=Weight +count',
      ),
    ).toEqual({
      ...EMPTY,
      table: 'weights',
      where: [
        { col: 'Day', op: '>=', value: { kind: 'today', offset: -7 } },
        { col: 'Note', op: '~', value: { kind: 'text', value: 'a b' } },
        { col: 'Note', op: '=', value: { kind: 'empty' } },
        { col: 'Tag', op: '!=', value: { kind: 'empty' } },
        { col: 'Weight', op: '<', value: { kind: 'number', value: 80, text: '80' } },
        { col: 'Weight', op: '>', value: { kind: 'number', value: 60, text: '60' } },
        { col: 'Weight', op: '<=', value: { kind: 'number', value: 79.5, text: '79.5' } },
      ],
      sort: [
        { col: 'Day', desc: true },
        { col: 'Weight', desc: false },
      ],
      limit: 7,
      cols: ['Day', 'Weight'],
      group: { col: 'Day', by: 'week' },
      sum: ['Weight'],
      avg: ['Weight', 'Km'],
      min: ['Weight'],
      max: ['Weight'],
      count: true,
    });
  });

  test('a quoted clause with spaces', () => {
    expect(props('query notes where="Note~hello world"|key=abc').where).toEqual([
      { col: 'Note', op: '~', value: { kind: 'text', value: 'hello world' } },
      { col: 'key', op: '=', value: { kind: 'text', value: 'abc' } },
    ]);
  });

  test('chart view: as chart <type>, numbers after min=/max= are axis bounds, +stack', () => {
    expect(
      props('query w as chart bar x=Day y=Weight|Fat unit=kg min=60 max=Weight +stack "Last weeks"'),
    ).toEqual({
      ...EMPTY,
      table: 'w',
      as: 'chart',
      y: ['Weight', 'Fat'],
      max: ['Weight'],
      chart: { type: 'bar', x: 'Day', unit: 'kg', min: 60, stack: true },
      title: 'Last weeks',
    });
  });

  test('list, stat and send views', () => {
    expect(props('query shopping where=Done=off as list check=Done')).toMatchObject({
      as: 'list',
      check: 'Done',
    });
    expect(props('query runs y=Km as stat label="Km run" good=up')).toMatchObject({
      as: 'stat',
      y: ['Km'],
      label: 'Km run',
      good: 'up',
    });
    expect(props('query runs as send')).toMatchObject({ as: 'send' });
    expect(props('query runs as=list')).toMatchObject({ as: 'list' });
  });

  test('other positional text is the title', () => {
    expect(props('query runs My runs as table')).toMatchObject({ title: 'My runs', as: 'table' });
  });

  test.each([
    ['query', 'INVALID_TABLE_NAME'],
    ['query t where=Weight', 'INVALID_WHERE'],
    ['query t where=Weight>', 'INVALID_WHERE'],
    ['query t sort=+x', 'INVALID_SORT'],
    ['query t limit=0', 'INVALID_LIMIT'],
    ['query t limit=501', 'INVALID_LIMIT'],
    ['query t group=Day:year', 'INVALID_GROUP'],
    ['query t as=grid', 'INVALID_VIEW'],
    ['query t min=0', 'INVALID_AGGREGATE'],
    ['query t wher=x', 'UNKNOWN_SETTING'],
    ['query t +counts', 'UNKNOWN_FLAG'],
    ['query t limit=5 limit=6', 'REPEATED_SETTING'],
  ])('%s is refused with %s', (line, code) => {
    expect(parse(line).errors.map((e) => e.code)).toEqual([code]);
  });
});
