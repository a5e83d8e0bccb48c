// The client library against the real router on 127.0.0.1: pairing into a 0600 state file, the host
// runner (heartbeats, commands only when changed, turns, answers), stream reconnects with no loss.
import { chmod, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedUser } from '@screen-service/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createHostClient,
  HostApiError,
  type HostToolResult,
  hostTablesTool,
  openMessageStream,
  readHostState,
  runHost,
  writeHostState,
} from '../src/client.js';
import { type Served, serveConnect } from './serve.js';

let s: Served;
let dir: string;
beforeAll(async () => {
  s = await serveConnect();
  dir = await mkdtemp(join(tmpdir(), 'svc-host-client-'));
});
afterAll(async () => {
  await s.close();
  await rm(dir, { recursive: true, force: true });
});

async function pairInto(email: string, path: string, profile = 'main') {
  const user = await seedUser(s.core.store, { email });
  const { agent, pairing } = await s.core.agents.create(user.id, { name: 'Echo' });
  const client = createHostClient({ url: s.url });
  const paired = await client.pair({ code: pairing!.code, remote_ref: profile, host_name: 'test box' });
  await writeHostState(path, {
    token: paired.connector_token!,
    connector_id: paired.connector.id,
    name: paired.connector.name,
    connect_url: client.connectUrl,
  });
  return {
    userId: user.id,
    agentId: agent.id,
    token: paired.connector_token!,
    connectorId: paired.connector.id,
  };
}

/** A fetch that counts calls per action or path. */
function countingFetch() {
  const counts = new Map<string, number>();
  const f: typeof fetch = async (input, init) => {
    const url = String(input);
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { action?: string }) : {};
    const key = body.action ?? url.replace(/^.*svc-connect/, '');
    counts.set(key, (counts.get(key) ?? 0) + 1);
    return fetch(input, init);
  };
  return { f, counts };
}

const until = async (check: () => Promise<boolean> | boolean, ms = 4000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('client', () => {
  it('pairs, keeps {token, connector_id, name} in a 0600 file, and refuses a file others can read', async () => {
    const path = join(dir, 'a', 'host.json');
    await pairInto('client-a@example.com', path);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const state = await readHostState(path);
    expect(state).toMatchObject({
      token: expect.stringMatching(/^svc_ct_/),
      connector_id: expect.any(String),
    });
    await chmod(path, 0o644);
    await expect(readHostState(path)).rejects.toThrow(/chmod 600/);
    expect(await readHostState(join(dir, 'missing.json'))).toBeNull();
    await writeFile(join(dir, 'bad.json'), '{', { mode: 0o600 });
    await expect(readHostState(join(dir, 'bad.json'))).rejects.toThrow(/not JSON/);
  });

  it('raises HostApiError with the service code', async () => {
    const client = createHostClient({ url: s.url.replace('/functions/v1/svc-connect', '') });
    const err = await client.pair({ code: '000000', remote_ref: 'x', host_name: 'h' }).catch((e) => e);
    expect(err).toBeInstanceOf(HostApiError);
    expect(err).toMatchObject({ status: 401, code: 'invalid_or_expired_code', permanent: true });
    const unpaired = await client.heartbeat().catch((e) => e);
    expect(unpaired).toMatchObject({ code: 'NOT_PAIRED' });
  });

  it('runs a host: heartbeats, commands only when they change, one turn per batch, answers once', async () => {
    const path = join(dir, 'b.json');
    const h = await pairInto('client-b@example.com', path);
    const { f, counts } = countingFetch();
    let commands = [{ name: 'echo', description: 'Echo back' }];
    const turns: string[][] = [];
    const controller = new AbortController();
    const host = await runHost({
      statePath: path,
      fetch: f,
      heartbeatEveryMs: 100,
      signal: controller.signal,
      commands: () => commands,
      sandbox: () => ({
        terminal: 'off',
        files: 'off',
        reach: [],
        memory: 'off',
        runner: 'api',
        profile: 'own',
        extra_keys: 0,
      }),
      async handleTurn(turn, ctx) {
        turns.push(turn.rows.map((r) => r.text));
        await ctx.reply({ text: `echo: ${turn.rows.map((r) => r.text).join(' | ')}` });
      },
    });
    await until(() => (counts.get('heartbeat') ?? 0) >= 4);
    expect(counts.get('commands')).toBe(1);
    expect((await s.core.store.agents.get(h.agentId))!).toMatchObject({ commands, clientSafe: true });
    commands = [...commands, { name: 'stop', description: 'Stop' }];
    await until(() => counts.get('commands') === 2);
    const beats = counts.get('heartbeat')!;
    await until(() => counts.get('heartbeat')! >= beats + 3);
    expect(counts.get('commands')).toBe(2);

    await s.core.threads.say(h.userId, h.agentId, { text: 'hi' });
    await until(async () => (await s.core.threads.page(h.userId, h.agentId)).messages.length === 2);
    const page = (await s.core.threads.page(h.userId, h.agentId)).messages;
    expect(page[1]).toMatchObject({ sender: 'agent', body: 'echo: hi', meta: { turn: [page[0]!.id] } });
    // The runner marks the turn's rows handled after its reply is written: wait for that, not the reply.
    await until(
      async () => (await s.core.threads.page(h.userId, h.agentId)).messages[0]!.handled_at !== null,
    );
    await until(async () => ((await readHostState(path))?.cursor ?? 0) === page[0]!.seq);
    controller.abort();
    expect(await host.done).toBe('aborted');
    expect(turns).toEqual([['hi']]);
  });

  it("offers svc_tables to the turn's model, bound to its agent: writes land in the agent's tables (D3-43)", async () => {
    const path = join(dir, 't.json');
    const h = await pairInto('client-t@example.com', path);
    const controller = new AbortController();
    const seen: { tools: string[]; answers: HostToolResult[] } = { tools: [], answers: [] };
    const host = await runHost({
      statePath: path,
      signal: controller.signal,
      heartbeatEveryMs: 60_000,
      async handleTurn(_turn, ctx) {
        seen.tools = ctx.tools.map((t) => t.name);
        const tables = ctx.tools.find((t) => t.name === 'svc_tables')!;
        // What a framework's model would do with the tool: write, read back, and get a refusal.
        seen.answers.push(await tables.run({ lines: 'table create Runs Km:number Day:date\nput Runs Km=5' }));
        seen.answers.push(await tables.run({ lines: 'query Runs +count\nput Nope X=1' }));
        seen.answers.push(await tables.run({}));
        seen.answers.push(await tables.run({ lines: 42 }));
        await ctx.reply({ text: 'Logged 5 km.' });
      },
    });
    await s.core.threads.say(h.userId, h.agentId, { text: 'log 5 km' });
    await until(async () => (await s.core.threads.page(h.userId, h.agentId)).messages.length === 2);
    controller.abort();
    await host.done;

    expect(seen.tools).toEqual(['svc_tables']);
    const [wrote, read, held, bad] = seen.answers;
    expect(wrote!.data).toMatchObject({
      ok: [
        { op: 'table', table: 'Runs' },
        { op: 'put', table: 'Runs' },
      ],
    });
    expect(read!.data).toMatchObject({
      results: [{ cols: ['Count'], rows: [[1]] }],
      failed: [{ table: 'Nope', error: expect.stringContaining('Nope') }],
    });
    expect(JSON.parse(read!.text)).toEqual(read!.data);
    expect(held!.data).toMatchObject({ held: [{ name: 'Runs', rows: 1, cols: ['Km', 'Day'] }] });
    expect(bad).toMatchObject({ isError: true, data: null });
    expect(bad!.text).toMatch(/svc_tables takes \{lines\}/);
    // The rows are the agent's own on the service: the person's controls list them.
    expect(await s.core.tables.list(h.userId)).toEqual([
      expect.objectContaining({ name: 'Runs', rows: 1, agent: expect.objectContaining({ id: h.agentId }) }),
    ]);
  });

  it('the tool describes the table words and takes only lines; refusals of the service come back as errors', async () => {
    const path = join(dir, 'u.json');
    const h = await pairInto('client-u@example.com', path);
    const client = createHostClient({ url: s.url, token: h.token });
    const tool = hostTablesTool(client, { agent: h.agentId });
    expect(tool.description).toContain('table create');
    expect(tool.description).toContain('query');
    expect(tool.inputSchema).toMatchObject({ type: 'object', properties: { lines: { type: 'string' } } });
    const tooMany = Array.from({ length: 51 }, (_, i) => `put Runs Km=${i}`).join('\n');
    const refused = await tool.run({ lines: tooMany });
    expect(refused).toMatchObject({ isError: true, data: { error: 'limit_exceeded' } });
    expect(refused.text).toMatch(/at most 50 per call/);
  });

  it('the stream reconnects after the service drops it, losing and repeating nothing', async () => {
    const path = join(dir, 'c.json');
    const h = await pairInto('client-c@example.com', path);
    const got: string[] = [];
    const controller = new AbortController();
    let opens = 0;
    const stream = openMessageStream({
      connectUrl: s.url,
      token: h.token,
      signal: controller.signal,
      initialDelayMs: 20,
      onOpen: () => opens++,
      onMessage: (m) => {
        got.push(m.text);
      },
    });
    await until(() => opens === 1);
    await s.core.threads.say(h.userId, h.agentId, { text: 'before' });
    await until(() => got.length === 1);
    s.server.closeAllConnections();
    await s.core.threads.say(h.userId, h.agentId, { text: 'during' });
    await until(() => opens >= 2);
    await s.core.threads.say(h.userId, h.agentId, { text: 'after' });
    await until(() => got.length === 3);
    await new Promise((r) => setTimeout(r, 100));
    expect(got).toEqual(['before', 'during', 'after']);
    controller.abort();
    expect(await stream.done).toBe('aborted');
  });

  it('the stream stops with "revoked" when the person removes the host', async () => {
    const path = join(dir, 'd.json');
    const h = await pairInto('client-d@example.com', path);
    let opened = false;
    const stream = openMessageStream({
      connectUrl: s.url,
      token: h.token,
      onOpen: () => (opened = true),
      onMessage: () => {},
    });
    await until(() => opened);
    await s.core.agents.removeConnection(h.userId, h.connectorId);
    expect(await stream.done).toBe('revoked');
    // A new stream with the revoked token stops at once too.
    expect(await openMessageStream({ connectUrl: s.url, token: h.token, onMessage: () => {} }).done).toBe(
      'revoked',
    );
  });
});
