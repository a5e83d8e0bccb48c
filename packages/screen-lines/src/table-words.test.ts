// Tests of table-words: behaviour through the public functions, with real inputs.
import { describe, expect, test } from 'vitest';
import { parse } from './parse.js';

const one = (line: string, screen?: string) => {
  const result = parse(line, screen === undefined ? {} : { screen });
  expect(result.errors).toEqual([]);
  return result.ops[0];
};

describe('table create / drop', () => {
  test('columns with types and a number unit; screen is copied', () => {
    expect(one('table create weights Day:date Weight:number:kg Done:bool Note:text', 's1')).toEqual({
      op: 'table',
      screen: 's1',
      name: 'weights',
      cols: [
        { name: 'Day', type: 'date' },
        { name: 'Weight', type: 'number', unit: 'kg' },
        { name: 'Done', type: 'bool' },
        { name: 'Note', type: 'text' },
      ],
    });
  });

  test('table drop', () => {
    expect(one('table drop weights')).toEqual({ op: 'drop', name: 'weights' });
  });

  test.each([
    ['table create 1x A:text', 'INVALID_TABLE_NAME'],
    ['table create t key:text', 'RESERVED_COLUMN'],
    ['table create t A:money', 'INVALID_COLUMN_TYPE'],
    ['table create t A:text:kg', 'UNIT_NOT_NUMBER'],
    ['table create t', 'MISSING_COLUMNS'],
    ['table create t A:text A:number', 'DUPLICATE_COLUMN'],
    [`table create t ${Array.from({ length: 13 }, (_, i) => `C${i}:text`).join(' ')}`, 'TOO_MANY_COLUMNS'],
    ['table rename t', 'UNKNOWN_TABLE_WORD'],
    ['table@x drop t', 'ID_NOT_ALLOWED'],
  ])('%s is refused with %s', (line, code) => {
    expect(parse(line).errors.map((e) => e.code)).toEqual([code]);
  });
});

describe('put', () => {
  test('every value kind', () => {
    expect(
      one(
        'put log Num=72.5 Neg=-3 Word=hello Quoted="two words" Day=2026-11-21 At=2026-11-21T08:30 T=today Y=today-1 Tm=today+2 N=now On=on Off=off +Flag Empty=',
      ),
    ).toEqual({
      op: 'put',
      table: 'log',
      values: {
        Num: { kind: 'number', value: 72.5, text: '72.5' },
        Neg: { kind: 'number', value: -3, text: '-3' },
        Word: { kind: 'text', value: 'hello' },
        Quoted: { kind: 'text', value: 'two words' },
        Day: { kind: 'date', value: '2026-11-21' },
        At: { kind: 'datetime', value: '2026-11-21T08:30' },
        T: { kind: 'today', offset: 0 },
        Y: { kind: 'today', offset: -1 },
        Tm: { kind: 'today', offset: 2 },
        N: { kind: 'now' },
        On: { kind: 'bool', value: true },
        Off: { kind: 'bool', value: false },
        Flag: { kind: 'bool', value: true },
        Empty: { kind: 'empty' },
      },
    });
  });

  test('keyed, quoted key, +delete', () => {
    expect(one('put shopping milk Done=on', 's9')).toEqual({
      op: 'put',
      screen: 's9',
      table: 'shopping',
      key: 'milk',
      values: { Done: { kind: 'bool', value: true } },
    });
    expect(one('put shopping "oat milk" +delete')).toEqual({
      op: 'put',
      table: 'shopping',
      key: 'oat milk',
      values: {},
      delete: true,
    });
  });

  test('words that only look typed stay text', () => {
    expect(one('put t A=5m B=todays C=nowhere D=one E=1.2.3')).toMatchObject({
      values: {
        A: { kind: 'text', value: '5m' },
        B: { kind: 'text', value: 'todays' },
        C: { kind: 'text', value: 'nowhere' },
        D: { kind: 'text', value: 'one' },
        E: { kind: 'text', value: '1.2.3' },
      },
    });
  });

  test.each([
    ['put t', 'PUT_NEEDS_VALUES'],
    ['put t k', 'PUT_NEEDS_VALUES'],
    ['put t +delete', 'DELETE_NEEDS_KEY'],
    ['put t k A=1 +delete', 'DELETE_WITH_VALUES'],
    ['put t A=1 A=2', 'DUPLICATE_COLUMN'],
    ['put t A=hello world', 'UNEXPECTED_ARGUMENT'],
    [`put t ${'k'.repeat(65)} A=1`, 'INVALID_KEY'],
    ['put t key=1', 'RESERVED_COLUMN'],
    ['put 9t A=1', 'INVALID_TABLE_NAME'],
    ['put@x t A=1', 'ID_NOT_ALLOWED'],
  ])('%s is refused with %s', (line, code) => {
    expect(parse(line).errors.map((e) => e.code)).toEqual([code]);
  });
});
