import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setImmediate as immediate } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import type { CallPace } from './call-pace.js';
import { createMemoryStore } from './memory-store.js';
import { runLines } from './run-lines.js';
import { createSqliteStore } from './sqlite-store.js';

const CALL = { owner: 'u', agent: 'a', now: Date.parse('2026-01-01T12:00:00Z'), timeZone: 'UTC' };
const dir = mkdtempSync(join(tmpdir(), 'te-pace-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A clock that moves `step` ms each time it is read: every line then takes exactly `step` ms of work. */
function steppingPace(step: number, over: Partial<CallPace> = {}): CallPace & { yields: number } {
  let t = 0;
  const pace = {
    yields: 0,
    clock: () => (t += step),
    sliceMs: 1_000_000,
    maxMs: 1_000_000,
    yieldNow: async () => {
      pace.yields++;
    },
    ...over,
  };
  return pace;
}

async function seeded(rows: number) {
  const store = createMemoryStore();
  const puts = Array.from({ length: rows }, (_, i) => `put T k${i} N=${i}`);
  await runLines(store, { ...CALL, lines: ['table create T N:number', ...puts.slice(0, 49)].join('\n') });
  for (let i = 49; i < rows; i += 50)
    await runLines(store, { ...CALL, lines: puts.slice(i, i + 50).join('\n') });
  return store;
}

describe('a paced call (ADR 0254)', () => {
  it("stops once the call's work passes its cap: the lines left are refused LIMIT_TIME, none of them runs", async () => {
    const store = await seeded(3);
    const pace = steppingPace(40, { maxMs: 100 });
    const answer = await runLines(store, {
      ...CALL,
      pace,
      lines: 'query T +count\nput T x N=1\nquery T\nput T y N=2\nquery T +count',
    });
    // Three lines of 40 ms each reach 120 ms: the fourth and fifth do not run.
    expect(answer.ok.map((o) => o.key)).toEqual(['x']);
    expect(answer.failed.map((f) => [f.key, f.code, f.lineNumber])).toEqual([['y', 'LIMIT_TIME', 4]]);
    expect(answer.failed[0]!.error).toMatch(/at most 100 ms per call.*send them in another call/);
    expect(answer.results.map((r) => r.code ?? 'ran')).toEqual(['ran', 'ran', 'LIMIT_TIME']);
    expect((await store.getRow({ owner: 'u', holder: 'a', name: 'T' }, 'y')) ?? null).toBeNull();
  });

  it('yields once a slice of work ran, and only then', async () => {
    const store = await seeded(2);
    const pace = steppingPace(10, { sliceMs: 25 });
    await runLines(store, { ...CALL, pace, lines: Array(9).fill('query T').join('\n') });
    // Each line takes 10 ms: a yield before lines 4 and 7 (after 30 ms of work each time).
    expect(pace.yields).toBe(2);
  });

  it("asks the budget before each query with the table's row count; a refusal names its reason", async () => {
    const store = await seeded(120);
    const asked: number[] = [];
    let left = 200;
    const admit = (rows: number) => {
      asked.push(rows);
      if (rows > left) return `this account's table work for the minute is used up; try again in 30 s`;
      left -= rows;
      return true as const;
    };
    const answer = await runLines(store, {
      ...CALL,
      pace: steppingPace(1, { admit }),
      lines: 'query T +count\nquery T +count\nput T z N=1',
    });
    expect(asked).toEqual([120, 120]);
    expect(answer.results.map((r) => [r.code ?? 'ran', r.rows])).toEqual([
      ['ran', [[120]]],
      ['LIMIT_BUDGET', []],
    ]);
    expect(answer.results[1]!.error).toMatch(/used up; try again in 30 s/);
    // Writes are not charged: the put after the refused query lands.
    expect(answer.ok.map((o) => o.key)).toEqual(['z']);
  });

  it('lets other work run between the queries of a long call on SQLite (the event loop is not held)', async () => {
    const store = createSqliteStore(join(dir, 'pace.sqlite'));
    const rows = Array.from({ length: 2000 }, (_, i) => `put T k${i} N=${i} S=word${i % 97}`);
    await runLines(store, { ...CALL, lines: 'table create T N:number S:text' });
    for (let i = 0; i < rows.length; i += 50)
      await runLines(store, { ...CALL, lines: rows.slice(i, i + 50).join('\n') });
    const heavy = Array(40).fill('query T group=S sum=N +count sort=-Count limit=5').join('\n');
    const order = async (pace?: CallPace) => {
      const seen: string[] = [];
      const call = runLines(store, { ...CALL, lines: heavy, ...(pace ? { pace } : {}) }).then(() =>
        seen.push('call'),
      );
      const other = immediate().then(() => seen.push('other'));
      await Promise.all([call, other]);
      return seen;
    };
    // Unpaced, the whole call runs before anything else the process had to do.
    expect(await order()).toEqual(['call', 'other']);
    const clock = () => performance.now();
    expect(await order({ clock, sliceMs: 1, maxMs: 60_000, yieldNow: () => immediate() })).toEqual([
      'other',
      'call',
    ]);
  });
});
