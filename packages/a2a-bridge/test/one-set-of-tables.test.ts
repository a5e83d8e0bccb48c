// Issue 37 through the bridges (ADR 0250): an agent's writes (A2A data part, webhook `tables`), its screens'
// table lines and the person's device copy are one set of tables; a refused line reaches its next message; a
// delete in a screen waits for the person's tap.
import { rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookTurnBody } from '../src/webhook-turn.js';
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
let hookServer: Server | undefined;
beforeAll(async () => {
  [service, agent] = await Promise.all([startService(), startTablesAgent()]);
  dir = bridgeDir();
});
afterAll(async () => {
  bridge?.child.kill('SIGKILL');
  hookServer?.closeAllConnections();
  hookServer?.close();
  await Promise.all([service.close(), agent.close()]);
  rmSync(dir, { recursive: true, force: true });
});

/** A webhook agent: answers the person's words with a reply and `tables`; records what it was sent. */
async function webhookAgent(): Promise<{ url: string; seen: WebhookTurnBody[] }> {
  const seen: WebhookTurnBody[] = [];
  hookServer = createServer((req: IncomingMessage, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += String(c);
    });
    req.on('end', () => {
      const body = JSON.parse(raw) as WebhookTurnBody;
      seen.push(body);
      const words = body.messages.map((m) => m.text).join(' ');
      const answers: Record<string, unknown> = {
        meals: {
          reply: 'Logged.\n```svc\nput meals tue dish=Pasta kcal=700\n```',
          tables: 'table create meals dish:text kcal:number\nput meals mon dish=Soup kcal=300',
        },
        bad: { reply: 'Trying.\n```svc\nput meals wed kcal=lots\n```' },
        drop: { reply: 'Dropping Monday.\n```svc\nput meals mon +delete\n```' },
      };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answers[words] ?? { reply: `echo: ${words}` }));
    });
  });
  await new Promise<void>((resolve) => hookServer!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(hookServer!.address() as AddressInfo).port}/hook`, seen };
}

interface Copy {
  tables: { name: string; rows?: unknown[][] }[];
}

type Person = Awaited<ReturnType<typeof signUpPerson>>;

/**
 * The person says `meals`, `bad`, `next?` and `drop`; the agent writes, draws and is refused as its adapter
 * allows; `failedSeen` finds the refusal in what the agent got with `next?`.
 */
async function flow(person: Person, agentId: string, failedSeen: () => unknown[]): Promise<void> {
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
  expect(failedSeen()).toEqual([
    expect.objectContaining({ line: 'put meals wed kcal=lots', error: expect.stringContaining('kcal') }),
  ]);
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
}

describe('one set of tables through the bridges', () => {
  it('A2A: data part and screen lines write what a device copies', { timeout: 90_000 }, async () => {
    const person = await signUpPerson(service.base, 'a2a-tables@example.com');
    const { agentId, code } = await person.addAgent('Meals');
    expect((await bridgeCli(['pair', code, '--card', agent.url, '--url', service.base], dir)).code).toBe(0);
    bridge = startBridge(['run'], dir);
    await flow(person, agentId, () => {
      const told = agent.seen.find((s) => s.texts.includes('next?'))!;
      return (told.data.find((d) => d.svc === 'tables')?.failed as unknown[]) ?? [];
    });
    bridge.child.kill('SIGKILL');
    bridge = undefined;
  });

  it('webhook: `tables` and screen lines write what a device copies', { timeout: 90_000 }, async () => {
    const hook = await webhookAgent();
    const person = await signUpPerson(service.base, 'hook-tables@example.com');
    const { agentId, code } = await person.addAgent('Hook meals');
    const hookDir = bridgeDir();
    const paired = await bridgeCli(
      ['pair', code, '--webhook', hook.url, '--name', 'Hook meals', '--url', service.base],
      hookDir,
    );
    expect(paired.code, paired.stderr).toBe(0);
    bridge = startBridge(['run'], hookDir);
    try {
      await flow(person, agentId, () => {
        const told = hook.seen.find((b) => b.messages.some((m) => m.text === 'next?'))!;
        return ((told.tables as { failed?: unknown[] } | undefined)?.failed as unknown[]) ?? [];
      });
    } finally {
      // The bridge writes its state into hookDir until it exits: stop it and wait before removing the folder.
      const child = bridge?.child;
      bridge = undefined;
      if (child && child.exitCode === null && child.signalCode === null) {
        const exit = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exit;
      }
      rmSync(hookDir, { recursive: true, force: true });
    }
  });
});
