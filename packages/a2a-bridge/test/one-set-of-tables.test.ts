// Issue 37 through the A2A bridge (ADR 0250): an agent's data-part writes, its screens' table lines and the
// person's device copy are one set of tables; a refused line reaches its next message; a delete waits for the tap.
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

interface Copy {
  tables: { name: string; rows?: unknown[][] }[];
}

describe('one set of tables through the A2A bridge', () => {
  it('data part and screen lines write what a device copies; refusals and deletes as doc3 says', {
    timeout: 90_000,
  }, async () => {
    const person = await signUpPerson(service.base, 'a2a-tables@example.com');
    const { agentId, code } = await person.addAgent('Meals');
    expect((await bridgeCli(['pair', code, '--card', agent.url, '--url', service.base], dir)).code).toBe(0);
    bridge = startBridge(['run'], dir);
    // What a device of the person copies (the app's `POST /agents/{id}/tables`).
    const copy = async () =>
      (
        (await call(service.base, 'POST', `/agents/${agentId}/tables`, { token: person.token, body: {} }))
          .body as Copy
      ).tables;

    await person.answerTo(agentId, await person.say(agentId, 'meals'));
    expect(await copy()).toEqual([
      expect.objectContaining({
        name: 'meals',
        rows: [
          ['mon', 'Soup', 300],
          ['tue', 'Pasta', 700],
        ],
      }),
    ]);

    await person.answerTo(agentId, await person.say(agentId, 'bad'));
    await person.answerTo(agentId, await person.say(agentId, 'next?'));
    const told = agent.seen.find((s) => s.texts.includes('next?'))!;
    expect(told.data).toContainEqual(
      expect.objectContaining({
        svc: 'tables',
        failed: [
          expect.objectContaining({
            line: 'put meals wed kcal=lots',
            error: expect.stringContaining('kcal'),
          }),
        ],
      }),
    );

    await person.answerTo(agentId, await person.say(agentId, 'drop'));
    const card = await waitFor('the Delete / Keep card', async () =>
      (await person.thread(agentId)).find((m) => m.screen?.lines.includes('Delete row mon from meals?')),
    );
    expect((await copy())[0]!.rows).toHaveLength(2);
    const tapped = await call(service.base, 'POST', `/agents/${agentId}/taps`, {
      token: person.token,
      body: {
        screen_id: card.screen!.id,
        event: { id: card.screen!.lines.match(/confirm@(\S+)/)![1], value: true },
      },
    });
    expect(tapped.status, JSON.stringify(tapped.body)).toBe(201);
    expect((await copy())[0]!.rows).toEqual([['tue', 'Pasta', 700]]);
  });
});
