import { createTestCore, seedAgent, seedConnection, seedUser, type TestCore } from '@screen-service/test-kit';
import { afterEach, describe, expect, it } from 'vitest';

let core: TestCore;
afterEach(() => core.close());

describe('native agents: store, hosted status and the runner connection', () => {
  it('saves, reads and edits a native agent row; it goes with its agent', async () => {
    core = createTestCore();
    const user = await seedUser(core.store);
    const agent = await seedAgent(core.store, user.id, { kind: 'hosted' });
    const row = {
      agentId: agent.id,
      userId: user.id,
      template: null,
      instructions: 'Be kind.',
      createdAt: 1,
      updatedAt: 1,
    };
    expect(await core.store.nativeAgents.save(row)).toEqual(row);
    expect(await core.store.nativeAgents.setInstructions(agent.id, 'Be brief.', 5)).toMatchObject({
      instructions: 'Be brief.',
      updatedAt: 5,
    });
    expect(await core.store.nativeAgents.setInstructions('agt_none', 'x', 5)).toBeNull();
    await core.deleteAgent(user.id, agent.id);
    expect(await core.store.nativeAgents.get(agent.id)).toBeNull();
  });

  it('lists the native agents that owe the person an answer', async () => {
    core = createTestCore();
    const user = await seedUser(core.store);
    const { agents } = await seedConnection(core.store, user.id, ['coach', 'idle'], 'hosted');
    for (const a of agents) {
      await core.store.nativeAgents.save({
        agentId: a.id,
        userId: user.id,
        template: null,
        instructions: 'x',
        createdAt: 1,
        updatedAt: 1,
      });
    }
    expect(await core.store.nativeAgents.listWithPending()).toEqual([]);
    await core.threads.say(user.id, agents[0]!.id, { text: 'hi' });
    expect(await core.store.nativeAgents.listWithPending()).toEqual([
      { agentId: agents[0]!.id, userId: user.id },
    ]);
  });

  it('shows a hosted agent connected without a heartbeat and keeps its runner out of the connections', async () => {
    core = createTestCore();
    const user = await seedUser(core.store);
    const { connector, agents } = await seedConnection(core.store, user.id, ['coach'], 'hosted');
    expect((await core.agents.get(user.id, agents[0]!.id)).status).toBe('connected');
    expect(await core.agents.connections(user.id)).toEqual([]);
    await expect(core.agents.removeConnection(user.id, connector.id)).rejects.toMatchObject({
      code: 'CONNECTOR_NOT_FOUND',
    });
  });

  it('ends a turn without an answer: the working row clears, the rows stay owed', async () => {
    core = createTestCore();
    const user = await seedUser(core.store);
    const { connector, agents } = await seedConnection(core.store, user.id, ['coach'], 'hosted');
    const p = {
      userId: user.id,
      connectorId: connector.id,
      connectorKind: 'hosted' as const,
      via: 'connector_token' as const,
    };
    const m = await core.threads.say(user.id, agents[0]!.id, { text: 'hi' });
    const working: (number | null)[] = [];
    core.notifier.subscribeAll((e) => {
      if (e.type === 'working') working.push(e.until);
    });
    await core.hostTransport.turn(p, { agent_id: agents[0]!.id, rows: [m.id] });
    await core.hostTransport.end(p, { agent_id: agents[0]!.id });
    await core.hostTransport.end(p, { agent_id: agents[0]!.id });
    expect(working.map((u) => u !== null)).toEqual([true, false]);
    expect(await core.store.threads.countUnhandled({ agentId: agents[0]!.id, userId: user.id })).toBe(1);
  });

  it('tells a subscribeAll listener about every user, until it stops', async () => {
    core = createTestCore();
    const seen: string[] = [];
    const stop = core.notifier.subscribeAll((e) => seen.push(e.userId));
    core.notifier.publish({ type: 'agents', userId: 'u1' });
    core.notifier.publish({ type: 'agents', userId: 'u2' });
    stop();
    core.notifier.publish({ type: 'agents', userId: 'u3' });
    expect(seen).toEqual(['u1', 'u2']);
  });
});
