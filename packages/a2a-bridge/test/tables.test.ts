// Tables through the bridge: an A2A agent writes rows and reads them (a data part only = a read, the rows
// come back at once on the next message), answers with a screen, and gets the person's tap.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BridgeProcess,
  bridgeCli,
  bridgeDir,
  call,
  type LiveService,
  signUpPerson,
  startBridge,
  startService,
  waitFor,
} from './live.js';
import { startTablesAgent } from './tables-agent.js';

let service: LiveService;
let agent: Awaited<ReturnType<typeof startTablesAgent>>;
let bridge: BridgeProcess | undefined;
let dir: string;
beforeAll(async () => {
  [service, agent] = await Promise.all([startService(), startTablesAgent()]);
  dir = bridgeDir();
});
afterAll(async () => {
  bridge?.child.kill('SIGKILL');
  await Promise.all([service.close(), agent.close()]);
  rmSync(dir, { recursive: true, force: true });
});

describe('tables through the bridge', () => {
  it('writes, reads back at once, draws a screen, and takes the tap', { timeout: 60_000 }, async () => {
    const person = await signUpPerson(service.base, 'shop@example.com');
    const { agentId, code } = await person.addAgent('Shopping');
    expect((await bridgeCli(['pair', code, '--card', agent.url, '--url', service.base], dir)).code).toBe(0);
    bridge = startBridge(['run'], dir);

    const row = await person.say(agentId, 'remember milk');
    const answer = await person.answerTo(agentId, row);
    // The chat text rides with the screen (meta.text); the screen is the fenced svc block.
    expect(answer.kind).toBe('screen');
    expect(answer.meta).toMatchObject({ text: 'You have: milk' });
    expect(answer.screen?.lines).toBe('choose@pick "Which first?" milk|later');
    // Two messages reached the agent for one person turn: the words, then the rows of its read.
    expect(agent.seen).toHaveLength(2);
    expect(agent.seen[1]!.texts).toEqual([]);
    expect(agent.seen[1]!.data[0]).toMatchObject({
      svc: 'tables',
      results: [{ table: 'shopping', cols: ['Item'], rows: [['milk']], count: 1 }],
      failed: [],
      held: [{ name: 'shopping', rows: 1 }],
    });
    // The person's controls see the table the agent holds.
    const listed = await call(service.base, 'GET', '/tables', { token: person.token });
    expect(JSON.stringify(listed.body)).toContain('shopping');

    // The tap on the screen reaches the agent as the tap line and the event's data part.
    const screen = (await person.thread(agentId)).find((m) => m.screen)!.screen!.id;
    const tapped = await call(service.base, 'POST', `/agents/${agentId}/taps`, {
      token: person.token,
      body: { screen_id: screen, event: { id: 'pick', value: 'milk' } },
    });
    expect(tapped.status, JSON.stringify(tapped.body)).toBe(201);
    const picked = await person.answerTo(agentId, tapped.body.message.id);
    expect(picked.body).toBe('You picked milk.');
    const tapSeen = await waitFor('the tap at the agent', async () =>
      agent.seen.find((s) => s.data.some((d) => d.id === 'pick')),
    );
    expect(tapSeen.texts[0]).toMatch(/^\[svc\] pick choose/);
    expect((await person.answers(agentId)).map((a) => a.body)).toEqual([answer.body, 'You picked milk.']);

    // A tables call the service refuses (51 lines) costs the person nothing; the agent hears why next turn.
    const flood = await person.say(agentId, 'flood');
    expect((await person.answerTo(agentId, flood)).body).toBe('Flooding.');
    const after = await person.say(agentId, 'still there?');
    expect((await person.answerTo(agentId, after)).body).toBe('echo: still there?');
    const told = agent.seen.find((s) => s.texts.includes('still there?'))!;
    expect(told.data).toContainEqual({
      svc: 'tables',
      failed: [expect.objectContaining({ code: 'limit_exceeded' })],
    });
    // Told once.
    const later = await person.say(agentId, 'and now?');
    await person.answerTo(agentId, later);
    expect(agent.seen.find((s) => s.texts.includes('and now?'))!.data).toEqual([]);
  });
});
