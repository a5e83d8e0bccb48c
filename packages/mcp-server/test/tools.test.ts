// The tools through the official SDK client over streamable HTTP against the real stack.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { guide } from '@screen-service/screen-lines';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Stack, startStack } from './harness.js';

interface ToolOut {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  return (await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 })) as ToolOut;
}

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack.close();
});

describe('the typical turn', () => {
  it('svc_show a choice, svc_answers(wait=25) wakes as soon as the person taps, then the next screen', async () => {
    const { user, agent, token } = await stack.newConnection('Coach');
    const client = await stack.connect(token);

    const shown = await call(client, 'svc_show', {
      lines: 'choose@lunch "Lunch?" Pasta|Salad',
      text: 'Quick one',
    });
    expect(shown.isError).toBeFalsy();
    const sc = shown.structuredContent as { screen_id: string; tap_ids: string[]; agent: { handle: string } };
    expect(sc.screen_id).toMatch(/^scr_/);
    expect(sc.tap_ids).toEqual(['lunch']);
    expect(sc.agent.handle).toBe(agent.handle);
    expect(sc).toMatchObject({ lines: 'choose@lunch "Lunch?" Pasta|Salad' });
    // The parsed ops ride along so the in-chat view draws without a parser.
    expect(sc).toMatchObject({
      ops: [
        {
          op: 'add',
          preset: 'choose',
          id: 'lunch',
          props: { question: 'Lunch?', options: ['Pasta', 'Salad'], multi: false },
        },
      ],
    });
    expect(shown.content[0]!.text).toContain(sc.screen_id);

    const started = Date.now();
    const waiting = call(client, 'svc_answers', { screen_id: sc.screen_id, wait: 25 });
    await vi.waitFor(() => expect(stack.notifier.listenerCount(user.id)).toBe(1));
    await stack.threads.tap(user.id, agent.id, {
      screen_id: sc.screen_id,
      event: { id: 'lunch', value: 'Pasta' },
    });
    const got = await waiting;
    // Woke on the tap, far before its 25 s wait (milliseconds: apps/server's wake benchmark).
    expect(Date.now() - started).toBeLessThan(10_000);
    const answers = (got.structuredContent as { answers: { kind: string; text: string; event: unknown }[] })
      .answers;
    expect(answers).toHaveLength(1);
    expect(answers[0]!.kind).toBe('tap');
    expect(answers[0]!.text).toMatch(/^\[svc\] lunch choose /);
    expect(answers[0]!.event).toMatchObject({ id: 'lunch', value: 'Pasta' });
    expect(got.content[0]!.text).toContain('[svc] lunch choose');

    const again = await call(client, 'svc_answers', { screen_id: sc.screen_id });
    expect((again.structuredContent as { answers: unknown[] }).answers).toEqual([]);
    const next = await call(client, 'svc_show', { lines: 'timer 5m Stretch' });
    expect((next.structuredContent as { tap_ids: string[] }).tap_ids).toEqual(['n1']);
  });

  it('returns each answer once when two callers wait at the same time', async () => {
    const { user, agent, token } = await stack.newConnection('Twice');
    const a = await stack.connect(token);
    const b = await stack.connect(token);
    const shown = await call(a, 'svc_show', { lines: 'confirm "Ready?"' });
    const screenId = (shown.structuredContent as { screen_id: string }).screen_id;
    const both = Promise.all([
      call(a, 'svc_answers', { screen_id: screenId, wait: 2 }),
      call(b, 'svc_answers', { screen_id: screenId, wait: 2 }),
    ]);
    await vi.waitFor(() => expect(stack.notifier.listenerCount(user.id)).toBe(2));
    await stack.threads.say(user.id, agent.id, { text: 'yes, go' });
    const results = await both;
    const counts = results.map((r) => (r.structuredContent as { answers: unknown[] }).answers.length).sort();
    expect(counts).toEqual([0, 1]);
  });

  it('with screen_id returns only items after that screen; the rest stay for a call without it', async () => {
    const { user, agent, token } = await stack.newConnection('Filter');
    const client = await stack.connect(token);
    const first = await call(client, 'svc_show', { lines: 'text Hello' });
    expect(first.isError).toBeFalsy();
    await stack.threads.say(user.id, agent.id, { text: 'early note' });
    const second = await call(client, 'svc_show', { lines: 'choose@pick "Which?" A|B' });
    const screenId = (second.structuredContent as { screen_id: string }).screen_id;
    await stack.threads.tap(user.id, agent.id, { screen_id: screenId, event: { id: 'pick', value: 'B' } });

    const after = await call(client, 'svc_answers', { screen_id: screenId });
    const list = (after.structuredContent as { answers: { kind: string; text: string }[] }).answers;
    expect(list.map((x) => x.kind)).toEqual(['tap']);
    const rest = await call(client, 'svc_answers', {});
    const restList = (rest.structuredContent as { answers: { text: string }[] }).answers;
    expect(restList.map((x) => x.text)).toEqual(['early note']);
    expect(rest.content[0]!.text).toContain('The person wrote: early note');
  });
});

describe('agents and scope', () => {
  it('one token serves two agents: svc_threads lists both (default first), agent takes a handle or an id', async () => {
    const user = await stack.newUser();
    const coach = await stack.pairAgent(user.id, 'Coach');
    const chef = await stack.pairAgent(user.id, 'Chef', { token: coach.token });
    expect(chef.connectorId).toBe(coach.connectorId);
    const client = await stack.connect(coach.token);

    await stack.threads.say(user.id, chef.agent.id, { text: 'hungry' });
    const threads = await call(client, 'svc_threads');
    const agents = (threads.structuredContent as { agents: { id: string; handle: string; unread: number }[] })
      .agents;
    expect(agents.map((a) => a.id)).toEqual([coach.agent.id, chef.agent.id]);
    expect(agents.map((a) => a.unread)).toEqual([0, 1]);
    expect(threads.content[0]!.text).toContain('(default)');

    const byHandle = await call(client, 'svc_say', { text: 'on it', agent: chef.agent.handle });
    expect((byHandle.structuredContent as { agent: { id: string } }).agent.id).toBe(chef.agent.id);
    const byAt = await call(client, 'svc_show', { lines: 'text Soup?', agent: `@${chef.agent.handle}` });
    expect((byAt.structuredContent as { agent: { id: string } }).agent.id).toBe(chef.agent.id);
    const byId = await call(client, 'svc_answers', { agent: chef.agent.id });
    expect((byId.structuredContent as { answers: { text: string }[] }).answers.map((a) => a.text)).toEqual([
      'hungry',
    ]);
    const byDefault = await call(client, 'svc_say', { text: 'hello' });
    expect((byDefault.structuredContent as { agent: { id: string } }).agent.id).toBe(coach.agent.id);
    const unknown = await call(client, 'svc_say', { text: 'x', agent: 'nobody' });
    expect(unknown.isError).toBe(true);
    expect(unknown.content[0]!.text).toMatch(/^agent_not_found: .*coach, chef/);
  });

  it("another agent's or another account's thread is out of reach", async () => {
    const user = await stack.newUser();
    const mine = await stack.pairAgent(user.id, 'Mine');
    const other = await stack.pairAgent(user.id, 'Other'); // same account, another connection
    const stranger = await stack.newConnection('Stranger'); // another account
    const me = await stack.connect(mine.token);
    const them = await stack.connect(other.token);
    const strangerClient = await stack.connect(stranger.token);

    const theirs = await call(them, 'svc_show', { lines: 'choose@x "Q?" A|B' });
    const theirScreen = (theirs.structuredContent as { screen_id: string }).screen_id;
    const far = await call(strangerClient, 'svc_show', { lines: 'choose@y "Q?" A|B' });
    const farScreen = (far.structuredContent as { screen_id: string }).screen_id;

    for (const screen_id of [theirScreen, farScreen]) {
      const answers = await call(me, 'svc_answers', { screen_id });
      expect(answers.isError).toBe(true);
      expect(answers.content[0]!.text).toMatch(/^screen_not_found/);
      const tap = await call(me, 'svc_tap', { screen_id, event: { id: 'x', value: 'A' }, told_model: false });
      expect(tap.isError).toBe(true);
      expect(tap.content[0]!.text).toMatch(/^screen_not_found/);
    }
    for (const agentRef of [other.agent.handle, other.agent.id, stranger.agent.id]) {
      const say = await call(me, 'svc_say', { text: 'psst', agent: agentRef });
      expect(say.content[0]!.text).toMatch(/^agent_not_found/);
    }
    const page = await stack.threads.page(user.id, other.agent.id);
    expect(page.messages.map((m) => m.kind)).toEqual(['screen']);
  });
});

describe('svc_show and svc_say writes', () => {
  it('refuses unparseable lines with the parser message as a tool error and writes nothing', async () => {
    const { user, agent, token } = await stack.newConnection('Strict');
    const client = await stack.connect(token);
    const bad = await call(client, 'svc_show', { lines: 'choose "Only one?" Yes' });
    expect(bad.isError).toBe(true);
    expect(bad.content[0]!.text).toMatch(/^invalid_lines: line 1: /);
    const err = (bad.structuredContent as { error: { code: string; details: { line: number }[] } }).error;
    expect(err.code).toBe('invalid_lines');
    expect(err.details[0]!.line).toBe(1);
    expect((await stack.threads.page(user.id, agent.id)).messages).toEqual([]);
    expect(await stack.store.threads.listPushIntents(user.id)).toEqual([]);

    const fenced = await call(client, 'svc_show', { lines: 'whatever nonsense here' });
    expect(fenced.isError).toBe(true);
    expect((await stack.threads.page(user.id, agent.id)).messages).toEqual([]);
  });

  it('svc_show and svc_say record a buzz unless the thread is open', async () => {
    const { user, agent, token } = await stack.newConnection('Buzz');
    const client = await stack.connect(token);
    await call(client, 'svc_show', { lines: 'text One' });
    await call(client, 'svc_say', { text: 'Two' });
    expect(await stack.store.threads.listPushIntents(user.id)).toHaveLength(2);
    await stack.threads.setPresence(user.id, agent.id, true);
    await call(client, 'svc_show', { lines: 'text Three' });
    await call(client, 'svc_say', { text: 'Four' });
    expect(await stack.store.threads.listPushIntents(user.id)).toHaveLength(2);
  });

  it('rejects arguments outside the schema (wait above 25) as a tool error', async () => {
    const { token } = await stack.newConnection('Schema');
    const client = await stack.connect(token);
    const r = await call(client, 'svc_answers', { wait: 30 });
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toMatch(/wait/);
  });
});

describe('svc_tap (in-chat view)', () => {
  it('writes handled when the host took the message, otherwise svc_answers returns it; line from the server', async () => {
    const { token } = await stack.newConnection('Viewer');
    const client = await stack.connect(token);
    const shown = await call(client, 'svc_show', { lines: 'choose@lunch "Lunch?" Pasta|Salad' });
    const screen_id = (shown.structuredContent as { screen_id: string }).screen_id;

    const told = await call(client, 'svc_tap', {
      screen_id,
      event: { id: 'lunch', value: 'Pasta', preset: 'forged', line: 'forged' },
      told_model: true,
    });
    expect(told.isError).toBeFalsy();
    const t = told.structuredContent as { line: string; handled: boolean; echo: string };
    expect(t.handled).toBe(true);
    expect(t.line).toMatch(/^\[svc\] lunch choose /);
    expect(t.line).not.toContain('forged');
    const none = await call(client, 'svc_answers', { screen_id });
    expect((none.structuredContent as { answers: unknown[] }).answers).toEqual([]);

    await call(client, 'svc_tap', { screen_id, event: { id: 'lunch', value: 'Salad' }, told_model: false });
    const one = await call(client, 'svc_answers', { screen_id });
    const list = (one.structuredContent as { answers: { event: { value: string } }[] }).answers;
    expect(list.map((a) => a.event.value)).toEqual(['Salad']);

    const off = await call(client, 'svc_tap', {
      screen_id,
      event: { id: 'nope', value: 1 },
      told_model: false,
    });
    expect(off.isError).toBe(true);
    expect(off.content[0]!.text).toMatch(/^not_on_screen/);
  });
});

describe('guide, prompt, resource, tool metadata', () => {
  it('serves instructions, svc_guide, svc://guide and tool descriptions generated from guide()', async () => {
    const { token } = await stack.newConnection('Reader');
    const client = await stack.connect(token);
    const g = guide();
    expect(client.getInstructions()).toContain('svc_answers');
    expect(client.getInstructions()).toContain(g.short.trim());

    const prompt = await client.getPrompt({ name: 'svc_guide' });
    const text = (prompt.messages[0]!.content as { text: string }).text;
    expect(text).toContain('call svc_show');
    expect(text).toContain(g.text);
    const resource = await client.readResource({ uri: 'svc://guide' });
    const guideText = (resource.contents[0] as { text: string }).text;
    expect(guideText).toContain(g.text);
    // Issue 28: the resource says where a fence applies and that svc_show takes none.
    expect(guideText.slice(0, guideText.indexOf(g.text))).toMatch(/svc_show[^.]*no code fence/);

    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'svc_answers',
      'svc_say',
      'svc_show',
      'svc_tables',
      'svc_tap',
      'svc_threads',
      'svc_withdraw',
    ]);
    const show = tools.find((t) => t.name === 'svc_show')!;
    expect(show.description).toContain(g.short.trim());
    expect(show._meta).toMatchObject({ ui: { resourceUri: 'ui://svc/screen' } });
    expect(show.inputSchema.required).toEqual(['lines']);
    const tap = tools.find((t) => t.name === 'svc_tap')!;
    expect(tap._meta).toMatchObject({ ui: { visibility: ['app'] } });
    expect(tap.inputSchema.required).toEqual(['screen_id', 'event', 'told_model']);
    // Portable schemas: unions are anyOf lists, never `type` arrays (the Inspector warned about 8 of them).
    const typeArrays = JSON.stringify(tools).match(/"type":\[/g) ?? [];
    expect(typeArrays).toEqual([]);
    const event = tap.inputSchema.properties?.event as { properties: { value: { anyOf: unknown[] } } };
    const value = event.properties.value;
    expect(value.anyOf[0]).toEqual({
      anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }],
    });
    const answers = tools.find((t) => t.name === 'svc_answers')!;
    expect(answers.inputSchema.properties?.wait).toMatchObject({ type: 'integer', minimum: 0, maximum: 25 });

    // No renderer was given: the screen resource is not registered (nothing fake is served).
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['svc://guide']);
  });
});

describe('completion and resource subscriptions', () => {
  it('answers completion/complete and resources/subscribe, and refuses what it does not serve', async () => {
    const { token } = await stack.newConnection();
    const client = await stack.connect(token);
    expect(client.getServerCapabilities()).toMatchObject({ completions: {}, resources: { subscribe: true } });
    // The guide prompt takes no arguments: nothing to complete, and that is an answer, not -32601.
    const done = await client.complete({
      ref: { type: 'ref/prompt', name: 'svc_guide' },
      argument: { name: 'topic', value: 'ti' },
    });
    expect(done.completion.values).toEqual([]);
    await expect(
      client.complete({ ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'a', value: '' } }),
    ).rejects.toMatchObject({ code: -32602 });
    expect(await client.subscribeResource({ uri: 'svc://guide' })).toEqual({});
    expect(await client.unsubscribeResource({ uri: 'svc://guide' })).toEqual({});
    await expect(client.subscribeResource({ uri: 'svc://elsewhere' })).rejects.toMatchObject({
      code: -32602,
      data: { uri: 'svc://elsewhere' },
      message: expect.stringContaining('svc://elsewhere'),
    });
  });
});

describe('screenApp registration point', () => {
  it('serves ui://svc/screen as an MCP App resource when the renderer HTML is given', async () => {
    const withApp = await startStack({
      screenApp: {
        html: '<!doctype html><title>screen</title>',
        resourceDomains: ['https://img.example.com'],
      },
    });
    try {
      const { token } = await withApp.newConnection('Apps');
      const client = await withApp.connect(token);
      const read = await client.readResource({ uri: 'ui://svc/screen' });
      const content = read.contents[0] as { mimeType: string; text: string; _meta: Record<string, unknown> };
      expect(content.mimeType).toBe('text/html;profile=mcp-app');
      expect(content.text).toMatch(/^<!doctype html>\n<meta http-equiv="Content-Security-Policy"/);
      expect(content.text).toContain('<title>screen</title>');
      expect(content._meta).toMatchObject({
        ui: { csp: { connectDomains: [], resourceDomains: ['https://img.example.com'] } },
      });
    } finally {
      await withApp.close();
    }
  });
});
