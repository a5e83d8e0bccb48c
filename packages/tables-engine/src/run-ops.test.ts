import { describe, expect, it } from 'vitest';
import { put, table } from '../test/ops.js';
import { createMemoryStore } from './memory-store.js';
import { runOps } from './run-ops.js';

describe('runOps', () => {
  it('refuses misuse: empty owner or agent, unknown time zone', async () => {
    const store = createMemoryStore();
    const base = { owner: 'u', agent: 'a', now: 0, timeZone: 'UTC', ops: [] };
    await expect(runOps(store, { ...base, owner: '' })).rejects.toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
    await expect(runOps(store, { ...base, timeZone: 'Nowhere/City' })).rejects.toThrow(
      expect.objectContaining({ code: 'INVALID_TIME_ZONE' }),
    );
  });

  it('asks a now function once per line, so each line lands at its own moment', async () => {
    const store = createMemoryStore();
    let t = Date.parse('2026-01-01T23:59:00Z');
    const now = () => {
      const at = t;
      t += 60_000;
      return at;
    };
    await runOps(store, {
      owner: 'u',
      agent: 'a',
      now,
      timeZone: 'UTC',
      ops: [table('T', 'D:date'), put('T', undefined, { D: 'now' }), put('T', undefined, { D: 'today' })],
    });
    const dump = (await store.exportTable({ owner: 'u', holder: 'a', name: 'T' }))!;
    expect(dump.rows.map((r) => r.values.D)).toEqual(['2026-01-02T00:00', '2026-01-02']);
  });
});
