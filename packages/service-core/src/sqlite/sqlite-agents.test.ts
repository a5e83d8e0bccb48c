import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, openHarness, seedUser } from '../../test/harness.js';
import { newId } from '../crypto.js';
import { ServiceError } from '../errors.js';

let h: Harness;
beforeEach(() => {
  h = openHarness();
});
afterEach(() => h.close());

async function addAgent(userId: string, handle: string, isDefault = false) {
  return h.store.agents.create({
    id: newId('agt_'),
    userId,
    name: handle,
    handle,
    color: 'butter',
    kind: 'mcp',
    isDefault,
    createdAt: Date.now(),
  });
}
const defaults = async (userId: string) =>
  (await h.store.agents.listByUser(userId)).filter((a) => a.isDefault).map((a) => a.handle);

describe('SQLite agents', () => {
  it('makes the first agent the default and keeps at most one default per user', async () => {
    const u = await seedUser(h.store);
    await addAgent(u.id, 'a');
    const b = await addAgent(u.id, 'b');
    expect(await defaults(u.id)).toEqual(['a']);
    await h.store.agents.setDefault(u.id, b.id, Date.now());
    expect(await defaults(u.id)).toEqual(['b']);
    await addAgent(u.id, 'c', true);
    expect(await defaults(u.id)).toEqual(['c']);
  });

  it('hands the default to the first remaining agent when the default is deleted', async () => {
    const u = await seedUser(h.store);
    const a = await addAgent(u.id, 'a');
    const b = await addAgent(u.id, 'b');
    const c = await addAgent(u.id, 'c');
    await h.store.agents.reorder(u.id, [c.id, b.id, a.id], Date.now());
    await h.store.agents.delete(a.id);
    expect(await defaults(u.id)).toEqual(['c']);
    await h.store.agents.delete(b.id);
    expect(await defaults(u.id)).toEqual(['c']);
    await h.store.agents.delete(c.id);
    expect(await h.store.agents.listByUser(u.id)).toEqual([]);
  });

  it('keeps handles unique per user, not across users', async () => {
    const u = await seedUser(h.store);
    const v = await seedUser(h.store);
    await addAgent(u.id, 'same');
    await addAgent(v.id, 'same');
    const err = await addAgent(u.id, 'same').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).code).toBe('HANDLE_TAKEN');
  });

  it('refuses a reorder that does not list exactly the user agents', async () => {
    const u = await seedUser(h.store);
    const a = await addAgent(u.id, 'a');
    await addAgent(u.id, 'b');
    await expect(h.store.agents.reorder(u.id, [a.id], Date.now())).rejects.toThrow(/exactly once/);
  });

  it('enforces name length and theme size in the schema too', async () => {
    const u = await seedUser(h.store);
    await expect(
      h.store.agents.create({
        id: 'x',
        userId: u.id,
        name: '',
        handle: 'x',
        color: 'mint',
        kind: 'mcp',
        createdAt: 1,
      }),
    ).rejects.toThrow(/CHECK/);
    const a = await addAgent(u.id, 'a');
    await expect(h.store.agents.update(a.id, { theme: { accent: 'x'.repeat(2100) } }, 1)).rejects.toThrow(
      /CHECK/,
    );
  });
});
