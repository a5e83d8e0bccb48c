// svc-a2a against the live service: pair with a code from the app, add, run both protocol versions,
// streamed and polled agents, every task state, list/remove, and the connection removed in the app.
import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './agents.js';
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

let service: LiveService;
let v10: TestServer;
let v03: TestServer;
const dirs: string[] = [];
const running: BridgeProcess[] = [];

beforeAll(async () => {
  [service, v10, v03] = await Promise.all([startService(), startTestServer('v10'), startTestServer('v03')]);
});
afterAll(async () => {
  for (const r of running) r.child.kill('SIGKILL');
  await Promise.all([service.close(), v10.close(), v03.close()]);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('svc-a2a on the live service', () => {
  it('pairs, adds, runs 1.0 and 0.3 agents side by side, and every task state reads right', {
    timeout: 150_000,
  }, async () => {
    const person = await signUpPerson(service.base, 'bridge@example.com');
    const dir = bridgeDir();
    dirs.push(dir);
    const url = ['--url', service.base];

    // A refused card is refused at pair, before the code is spent.
    const first = await person.addAgent('Helper');
    const grpc = await bridgeCli(['pair', first.code, '--card', `${v10.base}/grpc`, ...url], dir);
    expect(grpc.code).toBe(1);
    expect(grpc.stderr).toMatch(/offers only GRPC, HTTP\+JSON.*\[CARD_NO_JSONRPC\]/s);
    const wrong = await bridgeCli(['pair', '000000', '--card', v10.url('stream'), ...url], dir);
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toMatch(/invalid_or_expired_code/);

    // Named with --dir (not the environment), the folder is repeated in the next command it prints.
    const paired = await bridgeCli(
      ['pair', first.code, '--card', v10.url('stream'), ...url, '--dir', dir],
      dir,
    );
    expect(paired.code, paired.stderr).toBe(0);
    expect(paired.stdout).toMatch(/Paired v10-stream \(A2A 1\.0, streaming\) as "Helper"/);
    expect(paired.stdout).toContain(`Start serving with: svc-a2a run --dir ${dir}\n`);
    const state = join(dir, 'state.json');
    expect(statSync(state).mode & 0o777).toBe(0o600);

    // Another agent on the same machine, no code: the native 0.3 server, and a polled 1.0 agent.
    const added = await bridgeCli(['add', '--card', v03.url('stream')], dir);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/Added v03-stream \(A2A 0\.3, streaming\)/);
    expect(added.stdout).toContain('Start serving with: svc-a2a run\n');
    const polled = await bridgeCli(['add', '--card', v10.url('poll'), '--name', 'Poller'], dir);
    expect(polled.code, polled.stderr).toBe(0);
    // A keyed agent: the header is kept in the state file and never printed back.
    const keyed = await bridgeCli(
      ['add', '--card', v10.url('keyed'), '--header', 'Authorization: Bearer secret'],
      dir,
    );
    expect(keyed.code, keyed.stderr).toBe(0);
    expect(keyed.stdout + keyed.stderr).not.toContain('Bearer secret');
    expect(readFileSync(state, 'utf8')).toContain('Bearer secret');

    const saved = JSON.parse(readFileSync(state, 'utf8')) as {
      service: { connectorId: string };
      agents: Record<string, { name: string }>;
    };
    const idOf = (name: string) => Object.entries(saved.agents).find(([, a]) => a.name === name)![0];
    const a10 = first.agentId;
    const a03 = idOf('v03-stream');
    const aPoll = idOf('Poller');
    const aKeyed = idOf('v10-keyed');
    expect(idOf('v10-stream')).toBe(a10);

    const listed = await bridgeCli(['list'], dir);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/headers: {2}Authorization \(values kept in the state file\)/);
    expect(listed.stdout).not.toContain('Bearer secret');
    for (const name of ['v10-stream', 'v03-stream', 'Poller', 'v10-keyed'])
      expect(listed.stdout).toContain(name);

    // The app shows the card's name and skills in the agent's settings.
    expect((await person.agent(a03)).card).toEqual({
      name: 'v03-stream',
      skills: [{ name: 'Echo', description: 'Says back what it hears' }],
    });
    expect((await person.agent(a10)).status).toBe('connected');

    const bridge = startBridge(['run'], dir);
    running.push(bridge);
    await waitFor('run to start', async () =>
      bridge.out.stdout.includes('serving 4 agent(s)') ? true : undefined,
    );

    // Echo through each kind of agent, all at once.
    const [m10, m03, mPoll, mKeyed] = await Promise.all([
      person.say(a10, 'hello one'),
      person.say(a03, 'hello three'),
      person.say(aPoll, 'hello poll'),
      person.say(aKeyed, 'hello key'),
    ]);
    const echoes = await Promise.all([
      person.answerTo(a10, m10),
      person.answerTo(a03, m03),
      person.answerTo(aPoll, mPoll),
      person.answerTo(aKeyed, mKeyed),
    ]);
    expect(echoes.map((e) => e.body)).toEqual([
      'echo: hello one',
      'echo: hello three',
      'echo: hello poll',
      'echo: hello key',
    ]);
    // The first message of a task carried the channel guide, marked.
    const seen = v10.seen.find((m) => m.texts.includes('hello one'))!;
    expect(seen.textMetadata[0]).toMatchObject({ svc: 'channel_guide' });
    expect(seen.contextId).toBe(a10);

    // Ask-back: the question lands, the person's next message continues the same task.
    for (const agentId of [a10, a03]) {
      const ask = await person.say(agentId, 'ask');
      expect((await person.answerTo(agentId, ask)).body).toBe('Which city?');
      const city = await person.say(agentId, 'Paris');
      expect((await person.answerTo(agentId, city)).body).toBe('Weather in Paris: sunny');
    }
    // The agent answered from the task it asked in (else it would echo "Paris"); the follow-up named the
    // task and carried no guide.
    const continued = v03.seen.find((m) => m.texts.includes('Paris'))!;
    expect(continued.taskId).toBeDefined();
    expect(continued.textMetadata.some((md) => md?.svc === 'channel_guide')).toBe(false);

    // Failed, rejected and auth-required: one line saying so, then the agent's reason.
    const lines: [string, string][] = [
      ['fail', 'v10-stream could not finish the task.\nthe disk is full'],
      ['reject', 'v10-stream declined the task.\nI only talk about weather'],
      ['auth', 'v10-stream needs you to sign in first.\nSign in at https://auth.example/login'],
      ['cancel', 'v10-stream canceled the task.\nstopped by its operator'],
    ];
    for (const [word, line] of lines) {
      const row = await person.say(a10, word);
      expect((await person.answerTo(a10, row)).body).toBe(line);
    }
    const failed03 = await person.say(a03, 'fail');
    expect((await person.answerTo(a03, failed03)).body).toBe(
      'v03-stream could not finish the task.\nthe disk is full',
    );
    const canceled03 = await person.say(a03, 'cancel');
    expect((await person.answerTo(a03, canceled03)).body).toBe(
      'v03-stream canceled the task.\nstopped by its operator',
    );

    // Each answer landed exactly once, and every person row is handled.
    for (const agentId of [a10, a03, aPoll, aKeyed]) {
      const thread = await person.thread(agentId);
      const answered = thread.filter((m) => m.sender === 'agent').flatMap((m) => m.meta.turn ?? []);
      expect(new Set(answered).size).toBe(answered.length);
      expect(thread.filter((m) => m.sender === 'person').every((m) => answered.includes(m.id))).toBe(true);
    }

    // remove is the bridge's own bookkeeping.
    const removed = await bridgeCli(['remove', 'Poller'], dir);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toMatch(/Removed Poller from this bridge/);

    // Removing the connection in the app stops run with a clear message and exit code 3.
    const gone = await call(service.base, 'DELETE', `/connections/${saved.service.connectorId}`, {
      token: person.token,
    });
    expect([200, 204]).toContain(gone.status);
    expect(await bridge.exit).toBe(3);
    expect(bridge.out.stderr).toMatch(/this connection was removed in the app; pair again/);
  });
});
