import { describe, expect, it } from 'vitest';
import { put, table } from '../test/ops.js';
import { createMemoryStore } from './memory-store.js';
import { runOps } from './run-ops.js';

describe('runOps', () => {
  it('refuses misuse: empty owner or agent, unknown time zone', () => {
    const store = createMemoryStore();
    const base = { owner: 'u', agent: 'a', now: 0, timeZone: 'UTC', ops: [] };
    expect(() => runOps(store, { ...base, owner: '' })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
    expect(() => runOps(store, { ...base, timeZone: 'Nowhere/City' })).toThrow(
      expect.objectContaining({ code: 'INVALID_TIME_ZONE' }),
    );
  });

  it('asks a now function once per line, so each line lands at its own moment', () => {
    const store = createMemoryStore();
    let t = Date.parse('2026-01-01T23:59:00Z');
    const now = () => {
      const at = t;
      t += 60_000;
      return at;
    };
    runOps(store, {
      owner: 'u',
      agent: 'a',
      now,
      timeZone: 'UTC',
      ops: [table('T', 'D:date'), put('T', undefined, { D: 'now' }), put('T', undefined, { D: 'today' })],
    });
    const dump = store.exportTable({ owner: 'u', holder: 'a', name: 'T' })!;
    expect(dump.rows.map((r) => r.values.D)).toEqual(['2026-01-02T00:00', '2026-01-02']);
  });
});
