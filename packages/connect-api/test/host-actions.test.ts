// The host API's actions over real HTTP and a real SQLite file: every action, every error row of doc2.
import { CONNECTED_WINDOW_MS } from '@screen-service/registry/agents';
import { COMMAND_LIMITS } from '@screen-service/theme';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pairedHost, poster, type Served, serveConnect } from './serve.js';

let s: Served;
let post: ReturnType<typeof poster>;
beforeAll(async () => {
  s = await serveConnect();
  post = poster(s.url);
});
afterAll(() => s.close());

const SAFE = {
  terminal: 'container',
  files: 'sandbox',
  reach: [],
  memory: 'off',
  runner: 'api',
  profile: 'own',
  extra_keys: 0,
};

describe('add', () => {
  it('registers a profile with name and colour from the profile name; again answers created:false', async () => {
    const h = await pairedHost(s, 'add@example.com');
    const first = await post({ action: 'add', remote_ref: 'research' }, h.token);
    expect(first.status).toBe(200);
    expect(first.body.created).toBe(true);
    expect(first.body.agent).toMatchObject({
      name: 'research',
      handle: 'research',
      remote_ref: 'research',
      kind: 'hostfw',
      connector: { id: h.connectorId },
      commands: null,
    });
    expect(['lavender', 'mint', 'butter']).toContain(first.body.agent.color);
    const again = await post({ action: 'add', remote_ref: 'research', name: 'Other' }, h.token);
    expect(again.body).toMatchObject({
      created: false,
      agent: { id: first.body.agent.id, name: 'research' },
    });
    const named = await post({ action: 'add', remote_ref: 'w', name: 'Weather', color: 'butter' }, h.token);
    expect(named.body.agent).toMatchObject({ name: 'Weather', handle: 'weather', color: 'butter' });
  });

  it('throttles adds that create agents per account (issue 46): a burst of 10, then 429 with Retry-After', async () => {
    const h = await pairedHost(s, 'add-many@example.com');
    const made = [];
    for (let i = 0; i < 10; i++) made.push(await post({ action: 'add', remote_ref: `p${i}` }, h.token));
    expect(made.map((r) => r.status)).toEqual(Array(10).fill(200));
    const res = await fetch(s.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${h.token}` },
      body: JSON.stringify({ action: 'add', remote_ref: 'p10' }),
    });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await res.json()).toMatchObject({
      error: 'rate_limited',
      message: expect.stringMatching(
        /at most 10 agents a minute to one account; wait \d+ s before adding p10/,
      ),
    });
    // A host repeating a profile it already added (its start-up) is not throttled.
    expect(await post({ action: 'add', remote_ref: 'p3' }, h.token)).toMatchObject({
      status: 200,
      body: { created: false },
    });
    expect(await s.core.store.agents.listByUser(h.userId)).toHaveLength(11);
  });

  it.each([
    [{ remote_ref: 'a b' }, 'invalid_remote_ref'],
    [{}, 'invalid_remote_ref'],
    [{ remote_ref: 'x', name: '' }, 'invalid_name'],
    [{ remote_ref: 'x', name: 'n'.repeat(41) }, 'invalid_name'],
    [{ remote_ref: 'x', color: 'red' }, 'invalid_color'],
  ])('refuses %j with 400 %s', async (body, error) => {
    const h = await pairedHost(s, 'add-bad@example.com', `p${Math.random().toString(36).slice(2, 8)}`);
    expect(await post({ action: 'add', ...body }, h.token)).toMatchObject({ status: 400, body: { error } });
  });
});

describe('heartbeat', () => {
  it('answers {connector, seen_at, agents} with themes, and sets last_seen_at', async () => {
    const h = await pairedHost(s, 'hb@example.com');
    await s.core.store.agents.update(h.agentId, { theme: { accent: '#336699' } }, 1);
    s.core.advance(CONNECTED_WINDOW_MS + 1000);
    expect((await s.core.agents.get(h.userId, h.agentId)).status).toBe('offline');
    const r = await post({ action: 'heartbeat' }, h.token);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['agents', 'connector', 'seen_at']);
    expect(r.body.connector).toEqual({ id: h.connectorId, name: 'hb@example.com box', kind: 'hostfw' });
    expect(Date.parse(r.body.seen_at)).toBeGreaterThan(0);
    expect(r.body.agents).toEqual([
      expect.objectContaining({
        id: h.agentId,
        name: 'main agent',
        handle: 'main-agent',
        remote_ref: 'main',
        theme: { accent: '#336699' },
        session: h.agentId,
        client_safe: false,
      }),
    ]);
    const c = await s.core.store.connectors.get(h.connectorId);
    expect(c!.lastSeenAt).toBe(Date.parse(r.body.seen_at));
    expect((await s.core.agents.get(h.userId, h.agentId)).status).toBe('connected');
  });

  it('stores each profile’s sandbox report and re-checks the five rules; no report clears the mark', async () => {
    const h = await pairedHost(s, 'sandbox@example.com');
    const safe = await post({ action: 'heartbeat', sandbox: { main: { ...SAFE, junk: 1 } } }, h.token);
    expect(safe.body.agents[0]).toMatchObject({ client_safe: true, share_why: [] });
    let row = await s.core.store.agents.get(h.agentId);
    expect(row).toMatchObject({ clientSafe: true, sandbox: SAFE });
    expect(row!.clientSafeAt).toBe(Date.parse(safe.body.seen_at));

    // The host may claim safe; the service decides from the report itself.
    const cases: [Record<string, unknown>, string[]][] = [
      [{ profile: 'default' }, ['profile']],
      [{ extra_keys: 2 }, ['profile']],
      [{ terminal: 'local' }, ['sandbox']],
      [{ files: 'host' }, ['sandbox']],
      [{ reach: ['cron'] }, ['reach']],
      [{ memory: 'shared' }, ['memory']],
      [{ runner: 'cli-agent' }, ['runner']],
      [{ terminal: 'local', memory: 'per-user', client_safe: true }, ['sandbox', 'memory']],
    ];
    for (const [change, broken] of cases) {
      const r = await post({ action: 'heartbeat', sandbox: { main: { ...SAFE, ...change } } }, h.token);
      expect(r.body.agents[0]).toMatchObject({ client_safe: false, share_why: broken });
      expect((await s.core.store.agents.get(h.agentId))!.clientSafe).toBe(false);
    }
    await post({ action: 'heartbeat', sandbox: { main: SAFE } }, h.token);
    expect((await s.core.store.agents.get(h.agentId))!.clientSafe).toBe(true);
    const none = await post({ action: 'heartbeat' }, h.token);
    expect(none.body.agents[0]).toMatchObject({ client_safe: false, share_why: [] });
    row = await s.core.store.agents.get(h.agentId);
    expect(row).toMatchObject({ clientSafe: false, sandbox: null, clientSafeAt: null });
  });

  it.each([
    [{ sandbox: [] }, 'invalid_sandbox'],
    [{ sandbox: 'yes' }, 'invalid_sandbox'],
    [{ sandbox: { main: 'safe' } }, 'invalid_sandbox'],
    [{ sandbox: { main: { reach: ['x'.repeat(3000)] } } }, 'invalid_sandbox'],
  ])('refuses %j with 400 %s', async (body, error) => {
    const h = await pairedHost(s, 'hb-bad@example.com', `p${Math.random().toString(36).slice(2, 8)}`);
    expect(await post({ action: 'heartbeat', ...body }, h.token)).toMatchObject({
      status: 400,
      body: { error },
    });
  });
});

describe('commands', () => {
  it('cleans the list, stores it with commands_at, and null clears', async () => {
    const h = await pairedHost(s, 'cmd@example.com');
    const r = await post(
      {
        action: 'commands',
        remote_ref: 'main',
        commands: [
          { name: '/Help', description: 'Show help\nsecond line' },
          { name: 'help', description: 'duplicate' },
          { name: 'bad name', description: 'dropped' },
          { name: 'model', description: 'Switch model', args: '<name>', extra: 1 },
          'not an object',
        ],
      },
      h.token,
    );
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      agents: 1,
      commands: [
        { name: 'help', description: 'Show help' },
        { name: 'model', description: 'Switch model', args: '<name>' },
      ],
      at: expect.any(String),
    });
    const row = await s.core.store.agents.get(h.agentId);
    expect(row!.commands).toEqual(r.body.commands);
    expect(row!.commandsAt).toBe(Date.parse(r.body.at));
    expect((await s.core.agents.get(h.userId, h.agentId)).commands).toEqual(r.body.commands);
    const cleared = await post({ action: 'commands', remote_ref: 'main', commands: null }, h.token);
    expect(cleared.body).toMatchObject({ agents: 1, commands: null });
    expect((await s.core.store.agents.get(h.agentId))!.commands).toBeNull();
  });

  it('keeps doc2 limits: 200 entries, name 32, description 100, args 60, column 32 KB', async () => {
    const h = await pairedHost(s, 'limits@example.com');
    const many = Array.from({ length: 250 }, (_, i) => ({ name: `c${i}`, description: `d${i}` }));
    const r1 = await post({ action: 'commands', remote_ref: 'main', commands: many }, h.token);
    expect(r1.body.commands).toHaveLength(COMMAND_LIMITS.entries);
    const long = [
      { name: 'n'.repeat(32), description: 'x'.repeat(150), args: 'a'.repeat(90) },
      { name: 'n'.repeat(33), description: 'too long a name: dropped' },
    ];
    const r2 = await post({ action: 'commands', remote_ref: 'main', commands: long }, h.token);
    expect(r2.body.commands).toHaveLength(1);
    expect(Array.from(r2.body.commands[0].description as string)).toHaveLength(100);
    expect(Array.from(r2.body.commands[0].args as string)).toHaveLength(60);
    // 200 entries of ~190 bytes each are over 32 KB: entries go from the end until the column fits.
    const fat = Array.from({ length: 200 }, (_, i) => ({
      name: `cmd-${i}`,
      description: 'd'.repeat(100),
      args: 'a'.repeat(60),
    }));
    const r3 = await post({ action: 'commands', remote_ref: 'main', commands: fat }, h.token);
    expect(r3.status).toBe(200);
    const bytes = Buffer.byteLength(JSON.stringify(r3.body.commands));
    expect(bytes).toBeLessThanOrEqual(COMMAND_LIMITS.columnBytes);
    expect(r3.body.commands.length).toBeLessThan(200);
    expect(r3.body.commands.length).toBeGreaterThan(150);
    expect((await s.core.store.agents.get(h.agentId))!.commands).toEqual(r3.body.commands);
  });

  it('answers agents:0 for a profile not registered on this connector', async () => {
    const h = await pairedHost(s, 'cmd0@example.com');
    const r = await post({ action: 'commands', remote_ref: 'nope', commands: [] }, h.token);
    expect(r).toMatchObject({ status: 200, body: { agents: 0, commands: [] } });
  });

  it.each([
    [{ remote_ref: 'main', commands: { name: 'x' } }, 'invalid_commands'],
    [{ remote_ref: 'main', commands: 'help' }, 'invalid_commands'],
    [{ remote_ref: 'main' }, 'invalid_commands'],
    [{ commands: [] }, 'invalid_remote_ref'],
  ])('refuses %j with 400 %s', async (body, error) => {
    const h = await pairedHost(s, 'cmd-bad@example.com', `p${Math.random().toString(36).slice(2, 8)}`);
    expect(await post({ action: 'commands', ...body }, h.token)).toMatchObject({
      status: 400,
      body: { error },
    });
  });
});

describe('session', () => {
  it('answers the connector, agents with looks and sessions, app builds and the transport addresses', async () => {
    const h = await pairedHost(s, 'session@example.com');
    const r = await post({ action: 'session' }, h.token);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      connector: { id: h.connectorId, name: 'session@example.com box', kind: 'hostfw' },
      user_id: h.userId,
      agents: [expect.objectContaining({ id: h.agentId, remote_ref: 'main', session: h.agentId, theme: {} })],
      app_builds: {},
      transport: {
        messages_url: 'http://127.0.0.1/functions/v1/svc-connect/messages',
        turn_url: 'http://127.0.0.1/functions/v1/svc-connect/messages/turn',
        reply_url: 'http://127.0.0.1/functions/v1/svc-connect/messages/reply',
        heartbeat_every_s: 60,
        offline_after_s: 120,
      },
      limits: { text_chars: 4000, lines_chars: 20000, turn_rows: 100 },
    });
  });
});

describe('errors of every action', () => {
  const actions = ['add', 'heartbeat', 'commands', 'session'];
  it.each(actions)('%s: 401 unauthorized without or with a bad token', async (action) => {
    const body = { action, remote_ref: 'main', commands: [] };
    expect(await post(body)).toMatchObject({ status: 401, body: { error: 'unauthorized' } });
    expect(await post(body, 'svc_ct_not-a-real-token')).toMatchObject({
      status: 401,
      body: { error: 'unauthorized' },
    });
  });

  it.each(actions)('%s: 409 connector_revoked once the person removed the host', async (action) => {
    const h = await pairedHost(s, `revoked-${action}@example.com`);
    await s.core.agents.removeConnection(h.userId, h.connectorId);
    expect(await post({ action, remote_ref: 'main', commands: [] }, h.token)).toMatchObject({
      status: 409,
      body: { error: 'connector_revoked' },
    });
  });

  it('an OAuth access token is not a host credential (401)', async () => {
    expect(await post({ action: 'session' }, 'svc_at_whatever')).toMatchObject({
      status: 401,
      body: { error: 'unauthorized' },
    });
  });

  it('names unknown actions with the list it serves', async () => {
    const r = await post({ action: 'dance' });
    expect(r).toMatchObject({ status: 400, body: { error: 'invalid_action' } });
    expect(r.body.message).toContain('pair, add, heartbeat, commands, card, session');
  });

  it('answers 413 body_too_large over 64 KB', async () => {
    const h = await pairedHost(s, 'big@example.com');
    const r = await post({ action: 'commands', remote_ref: 'main', commands: ['x'.repeat(70_000)] }, h.token);
    expect(r).toMatchObject({ status: 413, body: { error: 'body_too_large' } });
  });
});

describe('card', () => {
  it('keeps a cleaned card summary on the agent (name, skills) and shows it in the agent view; null clears', async () => {
    const h = await pairedHost(s, 'card@example.com');
    const long = 'x'.repeat(300);
    const skills = Array.from({ length: 25 }, (_, i) => ({
      name: `Skill ${i}`,
      description: i === 0 ? long : undefined,
    }));
    const r = await post(
      { action: 'card', remote_ref: 'main', card: { name: ' Weather\n bot ', skills } },
      h.token,
    );
    expect(r.status).toBe(200);
    expect(r.body.agents).toBe(1);
    expect(r.body.card.name).toBe('Weather bot');
    expect(r.body.card.skills).toHaveLength(20);
    expect(r.body.card.skills[0].description).toHaveLength(200);
    expect(r.body.card.skills[1]).toEqual({ name: 'Skill 1' });
    const view = await s.core.agents.get(h.userId, h.agentId);
    expect(view.card).toEqual(r.body.card);
    const unknown = await post(
      { action: 'card', remote_ref: 'nope', card: { name: 'X', skills: [] } },
      h.token,
    );
    expect(unknown.body).toMatchObject({ agents: 0 });
    const cleared = await post({ action: 'card', remote_ref: 'main', card: null }, h.token);
    expect(cleared.body).toMatchObject({ agents: 1, card: null });
    expect((await s.core.agents.get(h.userId, h.agentId)).card).toBeNull();
  });

  it.each([
    [{ remote_ref: 'main' }, 'invalid_card'],
    [{ remote_ref: 'main', card: 'Weather' }, 'invalid_card'],
    [{ remote_ref: 'main', card: { skills: [] } }, 'invalid_card'],
    [{ remote_ref: 'main', card: { name: 'W', skills: [{ name: 3 }] } }, 'invalid_card'],
    [{ card: { name: 'W', skills: [] } }, 'invalid_remote_ref'],
  ])('refuses %j with 400 %s', async (body, error) => {
    const h = await pairedHost(s, 'card-bad@example.com', `p${Math.random().toString(36).slice(2, 8)}`);
    expect(await post({ action: 'card', ...body }, h.token)).toMatchObject({ status: 400, body: { error } });
  });
});
