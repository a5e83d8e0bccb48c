// The client against real SDK servers of each kind: cards, send, stream, read, resubscribe.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../test/agents.js';
import { fetchAgentCard, readAgentCard } from './card.js';
import { createA2AClient } from './client.js';
import type { A2AEvent, Message } from './model.js';

const msg = (text: string, extra: Partial<Message> = {}): Message => ({
  messageId: `m-${Math.random().toString(36).slice(2)}`,
  role: 'user',
  parts: [{ kind: 'text', text }],
  ...extra,
});

describe.each(['v10', 'compat', 'v03'] as const)('client against %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server.close());

  it('reads the card: version, endpoint, streaming', async () => {
    const card = await fetchAgentCard(server.url('stream'));
    expect(card.protocolVersion).toBe(kind === 'v03' ? '0.3' : '1.0');
    expect(card.endpoint).toBe(`${server.base}/stream/a2a`);
    expect(card.streaming).toBe(true);
    expect(card.skills.map((s) => s.id)).toEqual(['echo']);
    expect((await fetchAgentCard(server.url('poll'))).streaming).toBe(false);
  });

  it('sends blocking and gets the completed task with its artifact', async () => {
    const client = createA2AClient(await fetchAgentCard(server.url('stream')));
    const event = await client.send(msg('echo hello', { contextId: 'agent-1' }), true);
    expect(event.type).toBe('task');
    if (event.type !== 'task') return;
    expect(event.task.state).toBe('completed');
    expect(event.task.contextId).toBe('agent-1');
    expect(event.task.artifacts[0]?.parts).toEqual([{ kind: 'text', text: 'echo: echo hello' }]);
    const read = await client.getTask(event.task.id);
    expect(read.state).toBe('completed');
    const last = server.calls.at(-1)!;
    expect(last.method).toBe(kind === 'v03' ? 'tasks/get' : 'GetTask');
    expect(last.version).toBe(kind === 'v03' ? undefined : '1.0');
  });

  it('streams chunks in order and ends in completed', async () => {
    const client = createA2AClient(await fetchAgentCard(server.url('stream')));
    const events: A2AEvent[] = [];
    for await (const e of client.stream(msg('chunks'))) events.push(e);
    const texts = events.flatMap((e) =>
      e.type === 'artifact' ? e.artifact.parts.map((p) => (p.kind === 'text' ? p.text : '')) : [],
    );
    expect(texts).toEqual(['one ', 'two ', 'three']);
    const states = events.flatMap((e) => (e.type === 'status' ? [e.state] : []));
    expect(states.at(-1)).toBe('completed');
    expect(server.calls.at(-1)!.method).toBe(kind === 'v03' ? 'message/stream' : 'SendStreamingMessage');
  });

  it('answers a direct message', async () => {
    const client = createA2AClient(await fetchAgentCard(server.url('stream')));
    const event = await client.send(msg('direct hi'), true);
    expect(event.type).toBe('message');
    if (event.type === 'message') expect(event.message.parts).toEqual([{ kind: 'text', text: 'direct: hi' }]);
  });

  it('a non-blocking send names the task at once; polling sees it finish', async () => {
    const client = createA2AClient(await fetchAgentCard(server.url('poll')));
    const event = await client.send(msg('slow 300'), false);
    expect(event.type).toBe('task');
    if (event.type !== 'task') return;
    expect(['submitted', 'working']).toContain(event.task.state);
    // Poll the task (the probe) until it finishes; no fixed wait.
    await vi.waitFor(async () => expect((await client.getTask(event.task.id)).state).toBe('completed'), {
      timeout: 5_000,
      interval: 50,
    });
  });

  it('a keyed agent refuses calls without the header and accepts them with it', async () => {
    const card = await fetchAgentCard(server.url('keyed'));
    await expect(createA2AClient(card).send(msg('echo x'), true)).rejects.toMatchObject({
      code: 'RPC_HTTP_ERROR',
    });
    const ok = await createA2AClient(card, { headers: { Authorization: 'Bearer secret' } }).send(
      msg('echo x'),
      true,
    );
    expect(ok.type).toBe('task');
  });
});

// The 1.3 compat layer speaking 0.3 to a 0.3 client: the bridge's 0.3 codec must pass through it too.
describe('0.3 client against the 1.0 server with 0.3 compatibility', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('compat');
  });
  afterAll(() => server.close());

  it('the card without A2A-Version is the 0.3 card; 0.3 calls work end to end', async () => {
    const res = await fetch(`${server.url('stream')}/.well-known/agent-card.json`);
    const json = (await res.json()) as { protocolVersion: string; url: string };
    expect(json.protocolVersion).toMatch(/^0\.3/);
    // It also embeds the 1.0 interfaces, so the bridge itself would pick 1.0; speak 0.3 on purpose here.
    const card = { ...readAgentCard(json, res.url), protocolVersion: '0.3' as const, endpoint: json.url };
    const client = createA2AClient(card);
    const sent = await client.send(msg('echo compat'), true);
    expect(sent.type === 'task' && sent.task.state).toBe('completed');
    const events: A2AEvent[] = [];
    for await (const e of client.stream(msg('chunks'))) events.push(e);
    expect(events.filter((e) => e.type === 'artifact')).toHaveLength(3);
    if (sent.type === 'task') expect((await client.getTask(sent.task.id)).state).toBe('completed');
    const methods = server.calls.map((c) => `${c.method} ${c.version ?? 'none'}`);
    expect(methods).toEqual(['message/send none', 'message/stream none', 'tasks/get none']);
  });
});
