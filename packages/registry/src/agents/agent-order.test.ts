// The default agent and the order of a person's agents (agent-order.ts) over the real store: SQLite here,
// PostgreSQL in the registry's postgres run, where the racing adds meet for real.
import { createTestStore, seedUser, type TestStore } from '@screen-service/test-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../kernel/crypto.js';
import { ServiceError } from '../kernel/errors.js';
import type { Store } from '../model/repositories.js';
import {
  addAgent,
  MAX_AGENTS_PER_ACCOUNT,
  makeDefaultAgent,
  removeAgent,
  reorderAgents,
} from './agent-order.js';

let t: TestStore;
let store: Store;
beforeEach(() => {
  t = createTestStore();
  store = t.store;
});
afterEach(() => t.close());

const add = (userId: string, handle: string, isDefault?: boolean) =>
  addAgent(store, {
    id: newId('agt_'),
    userId,
    name: handle,
    handle,
    color: 'mint',
    kind: 'mcp',
    createdAt: 1,
    ...(isDefault === undefined ? {} : { isDefault }),
  });
const listed = async (userId: string) =>
  (await store.agents.listByUser(userId)).map((a) => `${a.handle}${a.isDefault ? '*' : ''}`);
const code = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => (e instanceof ServiceError ? `${e.code}:${e.field}` : String(e)),
  );

describe('agent order and the default agent', () => {
  it("a person's first agent is the default; later ones sort last; isDefault takes the default over", async () => {
    const u = await seedUser(store);
    await add(u.id, 'a');
    await add(u.id, 'b');
    expect(await listed(u.id)).toEqual(['a*', 'b']);
    await add(u.id, 'c', true);
    expect(await listed(u.id)).toEqual(['a', 'b', 'c*']);
    expect((await store.agents.listByUser(u.id)).map((a) => a.sort)).toEqual([0, 1, 2]);
    // Another person's first agent is theirs to default.
    const v = await seedUser(store);
    await add(v.id, 'a');
    expect(await listed(v.id)).toEqual(['a*']);
  });

  it('makes an agent the default (only the person’s own), clearing the old one', async () => {
    const u = await seedUser(store);
    const v = await seedUser(store);
    const a = await add(u.id, 'a');
    const b = await add(u.id, 'b');
    const theirs = await add(v.id, 'x');
    expect((await makeDefaultAgent(store, u.id, b.id, 5))?.isDefault).toBe(true);
    expect(await listed(u.id)).toEqual(['a', 'b*']);
    expect(await makeDefaultAgent(store, u.id, theirs.id, 6)).toBeNull();
    expect(await makeDefaultAgent(store, u.id, 'agt_missing', 6)).toBeNull();
    expect(await listed(v.id)).toEqual(['x*']);
    expect((await makeDefaultAgent(store, u.id, a.id, 7))?.updatedAt).toBe(7);
    expect(await listed(u.id)).toEqual(['a*', 'b']);
  });

  it('reorders only when the list names each of the person’s agents exactly once', async () => {
    const u = await seedUser(store);
    const a = await add(u.id, 'a');
    const b = await add(u.id, 'b');
    const c = await add(u.id, 'c');
    expect(await code(reorderAgents(store, u.id, [a.id], 1))).toBe('INVALID_INPUT:ids');
    expect(await code(reorderAgents(store, u.id, [a.id, a.id, b.id], 1))).toBe('INVALID_INPUT:ids');
    expect(await code(reorderAgents(store, u.id, [a.id, b.id, 'agt_other'], 1))).toBe('INVALID_INPUT:ids');
    expect(await listed(u.id)).toEqual(['a*', 'b', 'c']);
    await reorderAgents(store, u.id, [c.id, a.id, b.id], 2);
    expect(await listed(u.id)).toEqual(['c', 'a*', 'b']);
  });

  it('deleting the default hands it to the first agent left in the order', async () => {
    const u = await seedUser(store);
    const a = await add(u.id, 'a');
    const b = await add(u.id, 'b');
    const c = await add(u.id, 'c');
    await reorderAgents(store, u.id, [c.id, b.id, a.id], 1);
    expect(await removeAgent(store, b.id, 2)).toBe(true);
    expect(await listed(u.id)).toEqual(['c', 'a*']);
    expect(await removeAgent(store, a.id, 3)).toBe(true);
    expect(await listed(u.id)).toEqual(['c*']);
    expect(await removeAgent(store, a.id, 4)).toBe(false);
    expect(await removeAgent(store, c.id, 5)).toBe(true);
    expect(await listed(u.id)).toEqual([]);
  });

  it('first agents added at once leave exactly one default and distinct places', async () => {
    const u = await seedUser(store);
    await Promise.all(['a', 'b', 'c', 'd', 'e', 'f'].map((h) => add(u.id, h)));
    const list = await store.agents.listByUser(u.id);
    expect(list.filter((x) => x.isDefault)).toHaveLength(1);
    expect(list.map((x) => x.sort).sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

describe('the agents cap (issue 46)', () => {
  it(`an account holds at most ${MAX_AGENTS_PER_ACCOUNT} agents, even when the last places are raced for`, async () => {
    const u = await seedUser(store);
    for (let i = 0; i < MAX_AGENTS_PER_ACCOUNT - 2; i++) await add(u.id, `a${i}`);
    const raced = await Promise.all(['x', 'y', 'z', 'w'].map((h) => code(add(u.id, h))));
    expect(raced.sort()).toEqual(['LIMIT_EXCEEDED:agents', 'LIMIT_EXCEEDED:agents', 'ok', 'ok']);
    expect(await store.agents.listByUser(u.id)).toHaveLength(MAX_AGENTS_PER_ACCOUNT);
    await expect(add(u.id, 'late')).rejects.toThrow(/has 50 agents, the most it may have \(50\); delete one/);
    // Another account is not held by this one's count; a deleted agent frees a place.
    expect(await code(add((await seedUser(store)).id, 'a'))).toBe('ok');
    await removeAgent(store, (await store.agents.listByUser(u.id))[0]!.id, 2);
    expect(await code(add(u.id, 'late'))).toBe('ok');
  });
});
