import { newId } from '@screen-service/registry/kernel';
import {
  type TestStore as Harness,
  createTestStore as openHarness,
  seedUser,
} from '@screen-service/test-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

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
    sort: 0,
    createdAt: Date.now(),
  });
}

describe('SQLite agents (schema-level guards; the shared rules are in the conformance suite)', () => {
  it("lists a connection's agents through an index, without sorting per call", () => {
    const plan = h.db
      .prepare(
        'EXPLAIN QUERY PLAN SELECT * FROM agents WHERE connector_id = ? ORDER BY is_default DESC, sort, created_at, id',
      )
      .all('con_x') as { detail: string }[];
    const details = plan.map((p) => p.detail).join(' | ');
    expect(details).toContain('agents_connector_order');
    expect(details).not.toContain('TEMP B-TREE');
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
        isDefault: false,
        sort: 0,
        createdAt: 1,
      }),
    ).rejects.toThrow(/CHECK/);
    const a = await addAgent(u.id, 'a');
    await expect(h.store.agents.update(a.id, { theme: { accent: 'x'.repeat(2100) } }, 1)).rejects.toThrow(
      /CHECK/,
    );
  });
});
