// The engine against real SDK servers of each kind: the mapping of a conversation, turn by turn.

import { formatTapLine } from '@screen-service/screen-lines';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AUTH_HOLD_MS } from '../test/agent-script.js';
import { GRAPH_EXTENSION, startTestServer, type TestServer } from '../test/agents.js';
import { GUIDE, type Harness, makeHarness } from '../test/harness.js';
import { createBridge } from './bridge.js';
import { deriveMessageId } from './turn-message.js';

describe.each(['v10', 'compat', 'v03'] as const)('bridge against %s', (kind) => {
  let server: TestServer;
  let h: Harness;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server.close());
  afterEach(() => h?.cleanup());

  const texts = async () => (await h.link.posts(h.agent.agentId)).map((p) => `${p.kind}: ${p.text}`);

  it('a turn becomes one message (guide first, contextId = agent id); the answer names its rows', async () => {
    h = await makeHarness(server.url('stream'));
    await h.link.addRow(h.agent.agentId, { id: 'r1', text: 'hello there' });
    expect(await h.bridge.step(h.agent)).toBe('answered');
    const seen = server.seen.at(-1)!;
    expect(seen.messageId).toBe(deriveMessageId(h.agent.agentId, ['r1']));
    expect(seen.contextId).toBe(h.agent.agentId);
    expect(seen.texts).toEqual([GUIDE.text, 'hello there']);
    expect(seen.textMetadata[0]).toEqual({ svc: 'channel_guide', version: GUIDE.version });
    const posts = await h.link.posts(h.agent.agentId);
    expect(posts.map((p) => p.kind)).toEqual(['working', 'answer']);
    expect(posts[1]).toMatchObject({ text: 'echo: hello there', meta: { turn: ['r1'], state: 'completed' } });
    expect(await h.link.isDelivered('r1')).toBe(true);
    expect(await h.link.pendingRows(h.agent.agentId)).toEqual([]);
    expect(await h.outbox.list()).toEqual([]);
    expect((await h.state.agent(h.agent.agentId)).turn).toBeUndefined();
    expect(await h.bridge.step(h.agent)).toBe('idle');
  });

  it('without streaming it sends, then polls the task', async () => {
    h = await makeHarness(server.url('poll'));
    await h.link.addRow(h.agent.agentId, { id: 'r1', text: 'slow 150' });
    await h.bridge.step(h.agent);
    expect(await texts()).toEqual([`working: ${kind}-poll is working…`, 'answer: done slowly']);
    const methods = server.calls.filter((c) => c.path === 'poll').map((c) => c.method);
    expect(methods).toContain(kind === 'v03' ? 'message/send' : 'SendMessage');
    expect(methods).toContain(kind === 'v03' ? 'tasks/get' : 'GetTask');
    const send = server.calls.find((c) => c.path === 'poll' && /send/i.test(c.method))!;
    const config = (send.body as { params: { configuration: Record<string, unknown> } }).params.configuration;
    expect(config).toEqual(kind === 'v03' ? { blocking: false } : { returnImmediately: true });
  });

  it.each(['stream', 'poll'] as const)(
    'input-required (%s): the question lands, the next message continues the same task without the guide',
    async (path) => {
      h = await makeHarness(server.url(path));
      await h.link.addRow(h.agent.agentId, { id: 'r1', text: 'ask' });
      await h.bridge.step(h.agent);
      const taskId = (await h.state.agent(h.agent.agentId)).openTaskId;
      expect(taskId).toBeTruthy();
      await h.link.addRow(h.agent.agentId, { id: 'r2', text: 'Paris' });
      await h.bridge.step(h.agent);
      expect(server.seen.at(-1)).toMatchObject({ taskId, texts: ['Paris'] });
      // The follow-up's task opens with the old question still in it: that is not a new question.
      expect(await texts()).toEqual([
        `working: ${kind}-${path} is working…`,
        'answer: Which city?',
        `working: ${kind}-${path} is working…`,
        'answer: Weather in Paris: sunny',
      ]);
      expect((await h.state.agent(h.agent.agentId)).openTaskId).toBeUndefined();
    },
  );

  it('streamed chunks join into one answer, then the final status message that adds something', async () => {
    h = await makeHarness(server.url('stream'));
    await h.link.addRow(h.agent.agentId, { id: 'r1', text: 'chunks' });
    await h.bridge.step(h.agent);
    expect((await texts()).at(-1)).toBe('answer: one two three\n\nAll chunks sent.');
  });

  it.each([
    ['fail', 'could not finish the task.\nthe disk is full'],
    ['reject', 'declined the task.\nI only talk about weather'],
    ['auth', 'needs you to sign in first.\nSign in at https://auth.example/login'],
  ])("%s: one line saying so, then the agent's reason", async (word, line) => {
    h = await makeHarness(server.url('stream'));
    await h.link.addRow(h.agent.agentId, { id: 'r1', text: word });
    const started = Date.now();
    await h.bridge.step(h.agent);
    // auth-required may keep the stream open: the turn ends without waiting for it to close (the script
    // holds it AUTH_HOLD_MS; a bridge that waited would take at least that long, on any machine).
    if (word === 'auth') expect(Date.now() - started).toBeLessThan(AUTH_HOLD_MS / 2);
    const last = (await h.link.posts(h.agent.agentId)).at(-1)!;
    expect(last).toMatchObject({ kind: 'status', text: `${kind}-stream ${line}`, meta: { turn: ['r1'] } });
  });

  it('a direct message, a status-only answer and a file link', async () => {
    h = await makeHarness(server.url('stream'));
    for (const [id, text] of [
      ['r1', 'direct hi'],
      ['r2', 'status'],
      ['r3', 'file'],
    ]) {
      await h.link.addRow(h.agent.agentId, { id: id!, text: text! });
      await h.bridge.step(h.agent);
    }
    const answers = (await h.link.posts(h.agent.agentId))
      .filter((p) => p.kind === 'answer')
      .map((p) => p.text);
    expect(answers).toEqual(['direct: hi', 'only a status answer', 'https://files.example/report.pdf']);
  });

  it('messages sent during a turn go together as the next turn', async () => {
    h = await makeHarness(server.url('stream'));
    await h.link.addRow(h.agent.agentId, { id: 'r1', text: 'slow 300' });
    const first = h.bridge.step(h.agent);
    // Once the agent has the first turn (it answers after 300 ms), the next messages arrive during it.
    await vi.waitFor(() => expect(server.seen.some((m) => m.texts.includes('slow 300'))).toBe(true));
    await h.link.addRow(h.agent.agentId, { id: 'r2', text: 'echo one' });
    await h.link.addRow(h.agent.agentId, { id: 'r3', text: 'two' });
    await first;
    await h.bridge.step(h.agent);
    expect(server.seen.at(-1)!.texts).toEqual([GUIDE.text, 'echo one', 'two']);
    const answer = (await h.link.posts(h.agent.agentId)).at(-1)!;
    expect(answer).toMatchObject({ text: 'echo: echo one\ntwo', meta: { turn: ['r2', 'r3'] } });
  });

  it('a tap goes as its tap line plus its JSON as a data part', async () => {
    h = await makeHarness(server.url('stream'));
    const tap = { id: 'lunch', preset: 'choose', value: 'soup' };
    await h.link.addRow(h.agent.agentId, { id: 'r1', tap });
    await h.bridge.step(h.agent);
    const seen = server.seen.at(-1)!;
    expect(seen.texts.slice(1)).toEqual(['[svc] lunch choose choice=soup']);
    expect(formatTapLine(tap).startsWith('[svc] lunch choose choice=soup\n')).toBe(true);
    expect(seen.data).toEqual([tap]);
  });

  it('for a graph-framework card: one text part, svc_channel_guide and svc_events data, extension header', async () => {
    h = await makeHarness(server.url('graph'));
    expect(h.card.graphFramework).toBe(true);
    const tap = { id: 'n1', preset: 'confirm', value: true };
    await h.link.addRow(h.agent.agentId, { id: 'r1', text: 'hello' });
    await h.link.addRow(h.agent.agentId, { id: 'r2', tap });
    await h.bridge.step(h.agent);
    const seen = server.seen.at(-1)!;
    expect(seen.texts).toHaveLength(1);
    expect(seen.texts[0]).toMatch(/^hello\n\[svc\] n1 confirm /);
    expect(seen.data).toEqual([
      {
        svc_channel_guide: { version: GUIDE.version, body: GUIDE.text },
        svc_events: [{ id: 'n1', preset: 'confirm', value: true, row: 'r2' }],
      },
    ]);
    expect(server.calls.filter((c) => c.path === 'graph').at(-1)!.extensions).toBe(GRAPH_EXTENSION);
  });

  it('a dropped stream is resumed (subscribe, then task read) and the answer is whole', async () => {
    h = await makeHarness(server.url('stream'));
    await h.link.addRow(h.agent.agentId, { id: 'r1', text: 'chunks 150' });
    server.dropNextStreamAfter(3);
    const before = server.calls.length;
    await h.bridge.step(h.agent);
    const methods = server.calls.slice(before).map((c) => c.method);
    expect(methods).toContain(kind === 'v03' ? 'tasks/resubscribe' : 'SubscribeToTask');
    expect(methods.filter((m) => /stream|Streaming/.test(m))).toHaveLength(1);
    const answers = (await h.link.posts(h.agent.agentId)).filter((p) => p.kind === 'answer');
    expect(answers.map((a) => a.text)).toEqual(['one two three\n\nAll chunks sent.']);
  });

  it('a message whose task id was never heard is resent with the same messageId', async () => {
    h = await makeHarness(server.url('stream'));
    const rows = [{ id: 'r9', text: 'echo again' }];
    await h.link.addRow(h.agent.agentId, rows[0]!);
    const messageId = deriveMessageId(h.agent.agentId, ['r9']);
    await h.state.update(h.agent.agentId, () => ({ turn: { messageId, rows, heard: false } }));
    await h.bridge.step(h.agent);
    expect(server.seen.at(-1)!.messageId).toBe(messageId);
    expect((await h.link.posts(h.agent.agentId)).at(-1)!.text).toBe('echo: echo again');
  });

  it('headers kept in the state file reach a keyed agent', async () => {
    h = await makeHarness(server.url('keyed'));
    await h.state.update(h.agent.agentId, () => ({ headers: { Authorization: 'Bearer secret' } }));
    await h.link.addRow(h.agent.agentId, { id: 'r1', text: 'hi' });
    await h.bridge.step(h.agent);
    expect((await h.link.posts(h.agent.agentId)).at(-1)!.text).toBe('echo: hi');
  });

  it('an agent that refuses the key gets one status line, not an endless retry', async () => {
    h = await makeHarness(server.url('keyed'));
    await h.link.addRow(h.agent.agentId, { id: 'r1', text: 'hi' });
    await h.bridge.step(h.agent);
    const last = (await h.link.posts(h.agent.agentId)).at(-1)!;
    expect(last.kind).toBe('status');
    expect(last.text).toMatch(/could not take the message\.\n.*HTTP 401.*--header/);
  });
});

describe('bridge reliability', () => {
  let server: TestServer;
  let h: Harness;
  beforeAll(async () => {
    server = await startTestServer('v10');
  });
  afterAll(() => server.close());
  afterEach(() => h?.cleanup());

  it('an answer written while the service is down waits in the outbox and is posted once', async () => {
    h = await makeHarness(server.url('stream'));
    const link = h.link;
    let down = true;
    const flaky = Object.assign(Object.create(link) as typeof link, {
      post: async (p: Parameters<typeof link.post>[0]) => {
        if (down && p.kind !== 'working') throw new Error('service down');
        return link.post(p);
      },
    });
    const bridge = createBridge({ link: flaky, state: h.state, outbox: h.outbox });
    await link.addRow(h.agent.agentId, { id: 'r1', text: 'hi' });
    await expect(bridge.step(h.agent)).rejects.toThrow('service down');
    expect((await h.outbox.list()).map((p) => p.text)).toEqual(['echo: hi']);
    expect((await h.state.agent(h.agent.agentId)).turn).toBeUndefined();
    down = false;
    expect(await bridge.step(h.agent)).toBe('idle');
    expect(await bridge.step(h.agent)).toBe('idle');
    expect((await link.posts(h.agent.agentId)).filter((p) => p.kind === 'answer')).toHaveLength(1);
    expect(server.seen.filter((m) => m.texts.includes('hi'))).toHaveLength(1);
  });

  it('an unreachable agent: the step fails after its attempts, the turn waits and is resent unchanged', async () => {
    h = await makeHarness(server.url('stream'), { sendAttempts: 2 });
    const gone = { ...h.agent, card: { ...h.card, endpoint: 'http://127.0.0.1:9/a2a' } };
    await h.link.addRow(h.agent.agentId, { id: 'r1', text: 'later' });
    await expect(h.bridge.step(gone)).rejects.toMatchObject({ code: 'AGENT_UNREACHABLE' });
    const turn = (await h.state.agent(h.agent.agentId)).turn!;
    expect(turn).toMatchObject({ heard: false, messageId: deriveMessageId(h.agent.agentId, ['r1']) });
    // The person reads why nothing comes (the service clears the working row on it); the row stays owed.
    const notice = (await h.link.posts(h.agent.agentId)).filter((p) => p.kind === 'status');
    expect(notice).toEqual([
      expect.objectContaining({
        id: `${turn.messageId}:unreachable`,
        text: expect.stringMatching(
          /^.+ is not answering: could not reach http:\/\/127\.0\.0\.1:9\/a2a .*\nYour message waits/s,
        ),
        meta: { turn: [] },
      }),
    ]);
    expect(await h.link.pendingRows(h.agent.agentId)).toEqual([{ id: 'r1', text: 'later' }]);
    // A retry that fails again says nothing new.
    await expect(h.bridge.step(gone)).rejects.toMatchObject({ code: 'AGENT_UNREACHABLE' });
    expect((await h.link.posts(h.agent.agentId)).filter((p) => p.kind === 'status')).toHaveLength(1);
    await h.bridge.step(h.agent);
    expect(server.seen.at(-1)!.messageId).toBe(turn.messageId);
    expect((await h.link.posts(h.agent.agentId)).at(-1)!.text).toBe('echo: later');
  });

  it('run() serves several agents side by side until aborted', async () => {
    h = await makeHarness(server.url('stream'), { idleMs: 20 });
    const other = { agentId: 'second', card: h.card };
    await h.link.addRow(h.agent.agentId, { id: 'r1', text: 'slow 600' });
    await h.link.addRow('second', { id: 's1', text: 'slow 600' });
    const slowSeen = () => server.seen.filter((m) => m.texts.includes('slow 600')).length;
    const before = slowSeen();
    const controller = new AbortController();
    const running = h.bridge.run([h.agent, other], controller.signal);
    // Side by side: both slow turns reach the agent before either answer is back (one agent at a time,
    // the second message would be sent only after the first answer, 600 ms later).
    await vi.waitFor(() => expect(slowSeen() - before).toBe(2), { timeout: 5_000, interval: 10 });
    const answered = async (agentId: string) =>
      (await h.link.posts(agentId)).some((p) => p.text === 'done slowly');
    expect(await answered(h.agent.agentId)).toBe(false);
    expect(await answered('second')).toBe(false);
    await vi.waitFor(
      async () =>
        expect(
          (await h.link.pendingRows(h.agent.agentId)).length + (await h.link.pendingRows('second')).length,
        ).toBe(0),
      { timeout: 5_000, interval: 20 },
    );
    controller.abort();
    await running;
    expect((await h.link.posts('second')).at(-1)!.text).toBe('done slowly');
  });
});
