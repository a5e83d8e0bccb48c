// An agent or a screen read by id is kept while nothing changed it (ADRs 0302, 0304), on a real SQLite file: any
// write of this connection to the row's table forgets it at once, another connection's commit from the next turn
// (one data_version look per turn); reads inside a transaction neither use nor fill the keep.
import { setImmediate as turn } from 'node:timers/promises';
import { createTestStore, seedAgent, seedUser, type TestStore } from '@screen-service/test-kit';
import { afterEach, describe, expect, it } from 'vitest';

let t: TestStore;
afterEach(() => t?.close());

async function withAgent() {
  t = createTestStore({ prefix: 'svc-turn-rows-' });
  const user = await seedUser(t.store);
  const agent = await seedAgent(t.store, user.id, { name: 'Before' });
  return { store: t.store, user, agent };
}

/** A screen row (and the message it belongs to), written as raw SQL on the store's own connection. */
function addScreen(agentId: string, userId: string, id = 'scr_1') {
  const m = t.db
    .prepare(
      `INSERT INTO messages (id, user_id, agent_id, sender, kind, body, created_at)
       VALUES (?, ?, ?, 'agent', 'screen', 'choose', 1)`,
    )
    .run(`msg_${id}`, userId, agentId);
  t.db
    .prepare(
      `INSERT INTO screens (id, user_id, agent_id, message_id, message_seq, lines, ops, taps, created_at)
       VALUES (?, ?, ?, ?, ?, 'choose@pick "Q?" Yes|No', '[]', '[]', 1)`,
    )
    .run(id, userId, agentId, `msg_${id}`, Number(m.lastInsertRowid));
}

/** A second connection to the same file: another process (the CLI) as far as this one can tell. */
function otherConnection() {
  return new (t.db.constructor as new (f: string) => typeof t.db)(t.file);
}

describe('an agent read is kept while nothing changed it', () => {
  it('kept into later turns: the same record, not read again, while no connection wrote', async () => {
    const { store, agent } = await withAgent();
    const first = await store.agents.get(agent.id);
    await turn();
    await turn();
    expect(await store.agents.get(agent.id)).toBe(first);
    // Another connection's commit, to any table, moves data_version: the next turn reads afresh.
    const cli = otherConnection();
    cli.prepare('UPDATE users SET first_name = ? WHERE id = ?').run('Ann', agent.userId);
    cli.close();
    expect(await store.agents.get(agent.id)).toBe(first);
    await turn();
    const again = await store.agents.get(agent.id);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });

  it('another connection’s change is seen from the next turn; within the turn the first read stands', async () => {
    const { store, agent } = await withAgent();
    expect((await store.agents.get(agent.id))?.name).toBe('Before');
    const cli = otherConnection();
    cli.prepare('UPDATE agents SET name = ? WHERE id = ?').run('After', agent.id);
    cli.close();
    // The same turn: what the turn's first read gave (one statement per agent and turn).
    expect((await store.agents.get(agent.id))?.name).toBe('Before');
    await turn();
    expect((await store.agents.get(agent.id))?.name).toBe('After');
  });

  it('a change by this connection is seen at once: the store’s writes, raw SQL and a cascade', async () => {
    const { store, user, agent } = await withAgent();
    expect((await store.agents.get(agent.id))?.card).toBeNull();
    await store.agents.setCard(agent.id, { name: 'Card' } as never, Date.now());
    expect((await store.agents.get(agent.id))?.card).toEqual({ name: 'Card' });

    t.db.prepare('UPDATE agents SET name = ? WHERE id = ?').run('Raw', agent.id);
    expect((await store.agents.get(agent.id))?.name).toBe('Raw');

    // The user's deletion takes the agent along (ON DELETE CASCADE): nothing kept of it answers.
    await store.users.delete(user.id);
    expect(await store.agents.get(agent.id)).toBeNull();
  });

  it('a read inside a transaction neither uses nor fills the keep: a rolled-back change never shows', async () => {
    const { store, agent } = await withAgent();
    const seenInside = await store
      .transaction(async (tx) => {
        t.db.prepare('UPDATE agents SET name = ? WHERE id = ?').run('Uncommitted', agent.id);
        const inside = (await tx.agents.get(agent.id))?.name;
        throw Object.assign(new Error('roll back'), { inside });
      })
      .catch((e: { inside?: string }) => e.inside);
    expect(seenInside).toBe('Uncommitted');
    expect((await store.agents.get(agent.id))?.name).toBe('Before');
  });

  it('the kept record is frozen: one request cannot change what the next one reads', async () => {
    const { store, agent } = await withAgent();
    const first = (await store.agents.get(agent.id))!;
    expect(() => {
      (first as { name: string }).name = 'Changed';
    }).toThrow(TypeError);
    expect(() => {
      (first.theme as Record<string, unknown>).accent = 'red';
    }).toThrow(TypeError);
    expect((await store.agents.get(agent.id))?.name).toBe('Before');
  });

  it('an agent not found is not kept: one created later in the turn is found', async () => {
    const { store, user } = await withAgent();
    expect(await store.agents.get('agt_later')).toBeNull();
    const later = await seedAgent(store, user.id, { name: 'Later' });
    expect((await store.agents.get(later.id))?.name).toBe('Later');
  });
});

describe('a screen read is kept while nothing changed it', () => {
  it('kept within the turn against another connection, forgotten when this connection deletes it', async () => {
    const { store, user, agent } = await withAgent();
    addScreen(agent.id, user.id);
    expect((await store.threads.getScreen('scr_1'))?.lines).toBe('choose@pick "Q?" Yes|No');
    const cli = otherConnection();
    cli.prepare('UPDATE screens SET lines = ? WHERE id = ?').run('timer 5m Break', 'scr_1');
    cli.close();
    expect((await store.threads.getScreen('scr_1'))?.lines).toBe('choose@pick "Q?" Yes|No');
    await turn();
    expect((await store.threads.getScreen('scr_1'))?.lines).toBe('timer 5m Break');

    // This connection deletes the screen's message (the screen goes with it): gone in the same turn.
    t.db.prepare('DELETE FROM messages WHERE id = ?').run('msg_scr_1');
    expect(await store.threads.getScreen('scr_1')).toBeNull();
  });
});
