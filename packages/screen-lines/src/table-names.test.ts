import { describe, expect, it } from 'vitest';
import { parse } from './parse.js';
import {
  checkColumnName,
  checkColumnNames,
  checkRowKey,
  checkTableName,
  MAX_TABLE_COLUMNS,
  type TableRuleCode,
} from './table-names.js';

describe('table rules', () => {
  it('accepts doc3 names and refuses the rest with a code and the value', () => {
    expect(checkTableName('Weights')).toBeUndefined();
    expect(checkTableName('a'.repeat(32))).toBeUndefined();
    expect(checkTableName('a'.repeat(33))?.code).toBe('INVALID_TABLE_NAME');
    expect(checkTableName('2024')).toEqual({
      code: 'INVALID_TABLE_NAME',
      message: expect.stringContaining("'2024'"),
    });
    expect(checkColumnName('_hidden')).toBeUndefined();
    expect(checkColumnName('my col')?.code).toBe('INVALID_COLUMN_NAME');
    expect(checkColumnName('key')?.code).toBe('RESERVED_COLUMN');
    expect(checkRowKey('x'.repeat(64))).toBeUndefined();
    expect(checkRowKey('x'.repeat(65))?.code).toBe('INVALID_KEY');
    expect(checkRowKey('')?.code).toBe('INVALID_KEY');
  });

  it('checks a table’s columns together: count, names, duplicates', () => {
    const cols = (n: number) => Array.from({ length: n }, (_, i) => `C${i}`);
    expect(checkColumnNames(cols(MAX_TABLE_COLUMNS))).toBeUndefined();
    expect(checkColumnNames(cols(MAX_TABLE_COLUMNS + 1))?.code).toBe('TOO_MANY_COLUMNS');
    expect(checkColumnNames(cols(3), 2)?.code).toBe('TOO_MANY_COLUMNS');
    expect(checkColumnNames(['Day', 'Day'])?.code).toBe('DUPLICATE_COLUMN');
  });

  // The parser refuses the same lines with the same codes (one code from parser to engine).
  it.each<[string, TableRuleCode]>([
    ['table create 2024 Day:date', 'INVALID_TABLE_NAME'],
    [`table create ${'a'.repeat(33)} Day:date`, 'INVALID_TABLE_NAME'],
    ['table create T my-col!:text', 'INVALID_COLUMN_NAME'],
    ['table create T key:text', 'RESERVED_COLUMN'],
    ['table create T Day:date Day:date', 'DUPLICATE_COLUMN'],
    [`table create T ${Array.from({ length: 13 }, (_, i) => `C${i}:text`).join(' ')}`, 'TOO_MANY_COLUMNS'],
    [`put T ${'k'.repeat(65)} A=1`, 'INVALID_KEY'],
  ])('the parser refuses %s with %s', (line, code) => {
    expect(parse(line).errors.map((e) => e.code)).toEqual([code]);
  });
});
