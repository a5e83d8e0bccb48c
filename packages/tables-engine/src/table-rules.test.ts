// One code per table rule from parser to engine: a line the parser refuses (runLines) and the same op
// the engine refuses (runOps, ops built without the parser) carry the same screen-lines code.
import { TABLE_RULE_CODES, type TableRuleCode } from '@screen-service/screen-lines';
import { describe, expect, it } from 'vitest';
import { put, table } from '../test/ops.js';
import { DEFAULT_LIMITS } from './limits.js';
import { createMemoryStore } from './memory-store.js';
import { runLines } from './run-lines.js';
import { runOps } from './run-ops.js';

const call = { owner: 'u', agent: 'a', now: Date.parse('2026-01-05T07:00:00Z'), timeZone: 'UTC' };
const wide = Array.from({ length: 13 }, (_, i) => `C${i}:text`);

const CASES: [TableRuleCode, string, ReturnType<typeof table>][] = [
  ['INVALID_TABLE_NAME', 'table create 9lives A:text', table('9lives', 'A:text')],
  ['INVALID_TABLE_NAME', `table create ${'T'.repeat(33)} A:text`, table('T'.repeat(33), 'A:text')],
  ['INVALID_COLUMN_NAME', 'table create T 1A:text', table('T', '1A:text')],
  ['RESERVED_COLUMN', 'table create T key:text', table('T', 'key:text')],
  ['DUPLICATE_COLUMN', 'table create T A:text A:number', table('T', 'A:text', 'A:number')],
  ['TOO_MANY_COLUMNS', `table create T ${wide.join(' ')}`, table('T', ...wide)],
  ['INVALID_KEY', `put W ${'k'.repeat(65)} A=x`, put('W', 'k'.repeat(65), { A: 'x' })],
];

describe('table rules: one code from parser to engine', () => {
  it('covers every table rule code', async () => {
    expect(new Set(CASES.map(([code]) => code))).toEqual(new Set(TABLE_RULE_CODES));
  });

  it.each(CASES)('%s: %s', async (code, line, op) => {
    const store = createMemoryStore();
    await runLines(store, { ...call, lines: 'table create W A:text' });
    const parsed = await runLines(store, { ...call, lines: line });
    const engine = await runOps(store, { ...call, ops: [op] });
    expect(parsed.failed.map((f) => f.code)).toEqual([code]);
    expect(engine.failed.map((f) => f.code)).toEqual([code]);
  });

  it("the engine's default limits are screen-lines' constants", async () => {
    const lines = await import('@screen-service/screen-lines');
    expect(DEFAULT_LIMITS.columnsPerTable).toBe(lines.MAX_TABLE_COLUMNS);
    expect(DEFAULT_LIMITS.tableName).toBe(lines.MAX_TABLE_NAME_LENGTH);
    expect(DEFAULT_LIMITS.keyLength).toBe(lines.MAX_ROW_KEY_LENGTH);
  });
});
