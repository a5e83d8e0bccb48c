// The memory store runs the shared conformance suite, plus its snapshot and restore hook.
import { describe, expect, it } from 'vitest';
import { createMemoryStore, type MemorySnapshot, runOps } from '../src/index.js';
import { put, table } from './ops.js';
import { runStoreConformance } from './store-conformance.js';

runStoreConformance({ name: 'memory', create: () => createMemoryStore() });

describe('memory store snapshot', () => {
  it('saves on every change and restores into a new store', async () => {
    let saved: MemorySnapshot | undefined;
    const store = createMemoryStore({ onChange: (s) => (saved = JSON.parse(JSON.stringify(s.snapshot()))) });
    const call = { owner: 'u1', agent: 'a', now: 0, timeZone: 'UTC' };
    await runOps(store, {
      ...call,
      ops: [table('W', 'A:number'), put('W', undefined, { A: 1 }), put('W', 'k', { A: 2 })],
    });
    const copy = createMemoryStore({ snapshot: saved! });
    const ref = { owner: 'u1', holder: 'a', name: 'W' };
    expect(await copy.exportTable(ref)).toEqual(await store.exportTable(ref));
    await runOps(copy, { ...call, ops: [put('W', undefined, { A: 3 })] });
    expect((await copy.exportTable(ref))!.rows.map((r) => r.key)).toEqual(['r1', 'k', 'r2']);
    expect(() => copy.restore({} as MemorySnapshot)).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
  });
});
