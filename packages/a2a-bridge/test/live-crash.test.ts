// Crashes on the live service: the bridge SIGKILLed mid-task, and the service SIGKILLed while an answer
// waits in the outbox; after a restart each answer lands exactly once.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './agents.js';
import {
  type BridgeProcess,
  bridgeCli,
  bridgeDir,
  freePort,
  signUpPerson,
  startBridge,
  startServiceProcess,
  waitFor,
} from './live.js';

let agents: TestServer;
const cleanup: (() => void)[] = [];
const children: (ChildProcess | undefined)[] = [];

beforeAll(async () => {
  agents = await startTestServer('v10');
});
afterAll(async () => {
  for (const c of children) c?.kill('SIGKILL');
  await agents.close();
  for (const f of cleanup) f();
});

const turnOf = (dir: string, agentId: string) =>
  (
    JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as {
      agents: Record<string, { turn?: { heard: boolean; taskId?: string } }>;
    }
  ).agents[agentId]?.turn;

const killed = (p: BridgeProcess | ChildProcess) => {
  const child = 'child' in p ? p.child : p;
  const exit = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  return exit;
};

describe.concurrent('crashes', () => {
  it('SIGKILL of the bridge mid-task: the restarted run resumes the task and answers once', {
    timeout: 150_000,
  }, async () => {
    const port = await freePort();
    const data = mkdtempSync(join(tmpdir(), 'svc-a2a-crash-'));
    cleanup.push(() => rmSync(data, { recursive: true, force: true }));
    const service = await startServiceProcess(port, data);
    children.push(service);
    const base = `http://127.0.0.1:${port}`;
    const person = await signUpPerson(base, 'crash-bridge@example.com');
    const dir = bridgeDir();
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const { agentId, code } = await person.addAgent('Slow');
    expect((await bridgeCli(['pair', code, '--card', agents.url('stream'), '--url', base], dir)).code).toBe(
      0,
    );

    const first = startBridge(['run'], dir);
    children.push(first.child);
    const phone = await person.events();
    const row = await person.say(agentId, 'slow 2500');
    await waitFor('the task id in the state file', async () =>
      turnOf(dir, agentId)?.heard ? true : undefined,
    );
    // The phone shows a working row while the task is submitted/working.
    await waitFor('a working row on the phone', async () =>
      phone.seen.find(
        (e) => e.event === 'working' && e.data.agent_id === agentId && e.data.working_until !== null,
      ),
    );
    await killed(first);
    expect(await person.answers(agentId)).toEqual([]);

    const second = startBridge(['run'], dir);
    children.push(second.child);
    const answer = await person.answerTo(agentId, row);
    expect(answer.body).toBe('done slowly');
    // A later turn makes sure the restarted bridge is past the first before counting.
    const next = await person.say(agentId, 'after');
    await person.answerTo(agentId, next);
    expect((await person.answers(agentId)).map((a) => a.body)).toEqual(['done slowly', 'echo: after']);
    expect(agents.seen.filter((m) => m.texts.includes('slow 2500'))).toHaveLength(1);
    expect(second.out.stdout).toMatch(/turn of 1 row\(s\) \(resumed\)/);
    // The answer ended the working row.
    expect(
      phone.seen.some(
        (e) => e.event === 'working' && e.data.agent_id === agentId && e.data.working_until === null,
      ),
    ).toBe(true);
    phone.close();
    await killed(second);
  });

  it('SIGKILL of the service with an answer in the outbox: delivered once after the restart', {
    timeout: 150_000,
  }, async () => {
    const port = await freePort();
    const data = mkdtempSync(join(tmpdir(), 'svc-a2a-crash-'));
    cleanup.push(() => rmSync(data, { recursive: true, force: true }));
    let service = await startServiceProcess(port, data);
    children.push(service);
    const base = `http://127.0.0.1:${port}`;
    const person = await signUpPerson(base, 'crash-service@example.com');
    const dir = bridgeDir();
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const { agentId, code } = await person.addAgent('Slow');
    expect((await bridgeCli(['pair', code, '--card', agents.url('stream'), '--url', base], dir)).code).toBe(
      0,
    );
    const bridge = startBridge(['run'], dir);
    children.push(bridge.child);

    const row = await person.say(agentId, 'slow 1500');
    await waitFor('the task id in the state file', async () =>
      turnOf(dir, agentId)?.heard ? true : undefined,
    );
    await killed(service);
    // The agent finishes while the service is down: the answer waits in the outbox.
    const outbox = join(dir, 'outbox');
    const queued = await waitFor('the answer in the outbox', async () => {
      const files = readdirSync(outbox).filter((f) => f.endsWith('.json'));
      return files.length === 1 ? readFileSync(join(outbox, files[0]!), 'utf8') : undefined;
    });
    expect(JSON.parse(queued).post).toMatchObject({
      kind: 'answer',
      text: 'done slowly',
      meta: { turn: [row] },
    });

    service = await startServiceProcess(port, data);
    children.push(service);
    const answer = await person.answerTo(agentId, row, 30_000);
    expect(answer.body).toBe('done slowly');
    const next = await person.say(agentId, 'again');
    await person.answerTo(agentId, next, 30_000);
    expect((await person.answers(agentId)).map((a) => a.body)).toEqual(['done slowly', 'echo: again']);
    // The entry is removed just after the service took it (the reply answers first).
    await waitFor('an empty outbox', async () =>
      readdirSync(outbox).filter((f) => f.endsWith('.json')).length === 0 ? true : undefined,
    );
    await killed(bridge);
  });
});
