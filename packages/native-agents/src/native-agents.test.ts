import { MAX_AGENTS_PER_ACCOUNT } from '@screen-service/registry/agents';
import { seedConnection } from '@screen-service/test-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { createRig, type Rig } from '../test/setup.js';
import { pickStarters, STARTERS } from './starters.js';

let rig: Rig;
afterEach(async () => {
  await rig.close();
});

describe('native agents', () => {
  it('adds a starter in one call: hosted agent, look, first message and starter tables', async () => {
    rig = await createRig();
    const agent = await rig.native.add(rig.user.id, { starter: 'habit-coach' });
    expect(agent).toMatchObject({
      name: 'Habit Coach',
      handle: 'habit-coach',
      kind: 'hosted',
      status: 'connected',
    });
    expect(agent.theme).toMatchObject({ accent: '#1F8A5B' });
    const rows = await rig.rows(agent.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      sender: 'agent',
      kind: 'screen',
      meta: { text: expect.stringContaining('habit coach') },
    });
    expect(rows[0]!.body).toContain('checkin@feel scale');
    const tables = await rig.core.tables.list(rig.user.id);
    expect(tables).toEqual([
      expect.objectContaining({ name: 'runs', rows: 0, cols: ['Day', 'Km', 'Minutes', 'Feel'] }),
    ]);
    expect(await rig.native.instructions(rig.user.id, agent.id)).toMatchObject({ template: 'habit-coach' });
    // The service's own runner is not a connection the person made.
    expect(await rig.core.agents.connections(rig.user.id)).toEqual([]);
  });

  it('answers a tap on the starter first screen with the model', async () => {
    rig = await createRig();
    const agent = await rig.native.add(rig.user.id, { starter: 'habit-coach' });
    const screen = (await rig.rows(agent.id))[0]!;
    rig.model.script('Nice!\n```svc\nput runs Day=today Feel=4\n```');
    await rig.core.threads.tap(rig.user.id, agent.id, {
      screen_id: screen.screenId,
      event: { id: 'feel', value: 4 },
    });
    await new Promise((r) => setTimeout(r, 30));
    await rig.runtime.idle();
    const messages = rig.model.requests[0]!.messages;
    expect(messages[1]).toMatchObject({ role: 'assistant' });
    expect(messages[1]!.content).toContain('checkin@feel');
    expect(messages.at(-1)!.content).toMatch(/^\[svc\] feel checkin/);
    expect((await rig.core.tables.list(rig.user.id))[0]!.rows).toBe(1);
  });

  it('counts toward the agents cap of the account (issue 46): past it nothing is made', async () => {
    rig = await createRig();
    await seedConnection(
      rig.core.store,
      rig.user.id,
      Array.from({ length: MAX_AGENTS_PER_ACCOUNT }, (_, i) => `a${i}`),
    );
    await expect(rig.native.add(rig.user.id, { name: 'Chef', instructions: 'x' })).rejects.toMatchObject({
      code: 'LIMIT_EXCEEDED',
      field: 'agents',
    });
    expect(await rig.core.store.agents.listByUser(rig.user.id)).toHaveLength(MAX_AGENTS_PER_ACCOUNT);
  });

  it('adds a blank agent with no tables and no first message, and edits its instructions', async () => {
    rig = await createRig();
    const agent = await rig.native.add(rig.user.id, { name: 'Chef', instructions: 'Suggest dinners.' });
    expect(agent).toMatchObject({ name: 'Chef', kind: 'hosted', color: 'brand' });
    expect(await rig.rows(agent.id)).toEqual([]);
    expect(await rig.core.tables.list(rig.user.id)).toEqual([]);
    const edited = await rig.native.setInstructions(rig.user.id, agent.id, 'Suggest vegetarian dinners.');
    expect(edited).toMatchObject({ template: null, instructions: 'Suggest vegetarian dinners.' });
    await rig.say(agent.id, 'dinner?');
    expect(rig.model.requests[0]!.messages[0]!.content).toContain('Suggest vegetarian dinners.');
  });

  it('refuses bad input with the field and the fix', async () => {
    rig = await createRig();
    await expect(rig.native.add(rig.user.id, { starter: 'nope' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      field: 'starter',
    });
    await expect(rig.native.add(rig.user.id, { name: 'X' })).rejects.toMatchObject({ field: 'instructions' });
    await expect(rig.native.add(rig.user.id, { instructions: 'x' })).rejects.toMatchObject({ field: 'name' });
    const agent = await rig.native.add(rig.user.id, { name: 'X', instructions: 'y' });
    await expect(rig.native.setInstructions(rig.user.id, agent.id, '')).rejects.toMatchObject({
      field: 'instructions',
    });
    await expect(rig.native.instructions('usr_other', agent.id)).rejects.toMatchObject({
      code: 'AGENT_NOT_FOUND',
    });
  });

  it('offers only the starters the operator enabled', () => {
    expect(pickStarters('all').map((s) => s.id)).toEqual(['habit-coach', 'todo-keeper', 'study-helper']);
    expect(pickStarters(['study-helper']).map((s) => s.id)).toEqual(['study-helper']);
    expect(pickStarters([])).toEqual([]);
    expect(() => pickStarters(['chess'])).toThrow(
      /SVC_MODEL_STARTERS names unknown starter agent\(s\) chess/,
    );
  });

  it('ships starters whose first screens and tables parse', async () => {
    rig = await createRig();
    for (const s of STARTERS) {
      const agent = await rig.native.add(rig.user.id, { starter: s.id });
      const rows = await rig.rows(agent.id);
      expect(rows.map((r) => r.kind)).toEqual(['screen']);
    }
    expect((await rig.core.tables.list(rig.user.id)).map((t) => t.name)).toEqual(['runs', 'todos', 'cards']);
    expect(rig.native.offer().starters.map((s) => s.tables)).toEqual([['runs'], ['todos'], ['cards']]);
  });
});
