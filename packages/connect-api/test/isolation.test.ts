// Isolation, table-driven over every host action and transport call: a connector token reaches only its
// own agents — never another account's, and never another connector's of the same account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pairedHost, poster, type Served, serveConnect } from './serve.js';
import { openStream } from './sse.js';

let s: Served;
let post: ReturnType<typeof poster>;
type Host = Awaited<ReturnType<typeof pairedHost>>;
let victim: Host;
let victimRow: string;
let victimScreen: string;
/** Every row of the victim's agent and connector, to prove nothing changed. */
const snapshot = () =>
  JSON.stringify({
    agents: s.core.db.prepare('SELECT * FROM agents WHERE id = ?').all(victim.agentId),
    connectors: s.core.db.prepare('SELECT * FROM connectors WHERE id = ?').all(victim.connectorId),
    messages: s.core.db.prepare('SELECT * FROM messages WHERE agent_id = ? ORDER BY seq').all(victim.agentId),
    state: s.core.db.prepare('SELECT * FROM thread_state WHERE agent_id = ?').all(victim.agentId),
  });

beforeAll(async () => {
  s = await serveConnect();
  post = poster(s.url);
  victim = await pairedHost(s, 'victim@example.com', 'main');
  await post(
    { action: 'commands', remote_ref: 'main', commands: [{ name: 'mine', description: 'x' }] },
    victim.token,
  );
  victimRow = (await s.core.threads.say(victim.userId, victim.agentId, { text: 'secret' })).id;
  const shown = await post(
    { agent_id: victim.agentId, idempotency_key: 'v', lines: 'choose@q "Q?" A|B' },
    victim.token,
    '/messages/reply',
  );
  victimScreen = shown.body.screen_id;
});
afterAll(() => s.close());

interface Case {
  name: string;
  /** Runs as the intruder; asserts what the intruder sees. */
  run(intruder: Host): Promise<void>;
}

const cases: Case[] = [
  {
    name: 'heartbeat lists only its own agents and marks only itself seen',
    async run(i) {
      const seen = (await s.core.store.connectors.get(victim.connectorId))!.lastSeenAt;
      s.core.advance(5);
      const r = await post({ action: 'heartbeat', sandbox: { main: { runner: 'api' } } }, i.token);
      expect(r.status).toBe(200);
      expect(r.body.agents.map((a: { id: string }) => a.id)).not.toContain(victim.agentId);
      expect((await s.core.store.connectors.get(victim.connectorId))!.lastSeenAt).toBe(seen);
    },
  },
  {
    name: 'session shows only its own agents',
    async run(i) {
      const r = await post({ action: 'session' }, i.token);
      expect(r.body.agents.map((a: { id: string }) => a.id)).not.toContain(victim.agentId);
    },
  },
  {
    name: 'commands for the same profile name touch only its own profile',
    async run(i) {
      const r = await post({ action: 'commands', remote_ref: 'main', commands: null }, i.token);
      expect(r.status).toBe(200);
      expect((await s.core.store.agents.get(victim.agentId))!.commands).toEqual([
        { name: 'mine', description: 'x' },
      ]);
    },
  },
  {
    name: 'add of the same profile name makes its own agent',
    async run(i) {
      const r = await post({ action: 'add', remote_ref: 'main' }, i.token);
      expect(r.status).toBe(200);
      expect(r.body.agent.id).not.toBe(victim.agentId);
      expect(r.body.agent.connector.id).toBe(i.connectorId);
    },
  },
  {
    name: 'turn on the victim’s agent is not_found',
    async run(i) {
      const r = await post({ agent_id: victim.agentId, rows: [victimRow] }, i.token, '/messages/turn');
      expect(r).toMatchObject({ status: 404, body: { error: 'not_found' } });
    },
  },
  {
    name: 'turn on its own agent with the victim’s rows is refused',
    async run(i) {
      const r = await post({ agent_id: i.agentId, rows: [victimRow] }, i.token, '/messages/turn');
      expect(r).toMatchObject({ status: 400, body: { error: 'invalid_rows' } });
    },
  },
  {
    name: 'reply into the victim’s thread is not_found',
    async run(i) {
      const r = await post(
        { agent_id: victim.agentId, idempotency_key: 'v', text: 'hijack' },
        i.token,
        '/messages/reply',
      );
      expect(r).toMatchObject({ status: 404, body: { error: 'not_found' } });
    },
  },
  {
    name: 'reply naming the victim’s rows in its turn is refused',
    async run(i) {
      const r = await post(
        { agent_id: i.agentId, idempotency_key: 'steal', text: 'x', turn: [victimRow] },
        i.token,
        '/messages/reply',
      );
      expect(r).toMatchObject({ status: 400, body: { error: 'invalid_turn' } });
    },
  },
  {
    name: 'reply with the victim’s idempotency key writes its own row, not a replay of the victim’s',
    async run(i) {
      const r = await post(
        { agent_id: i.agentId, idempotency_key: 'v', text: 'mine' },
        i.token,
        '/messages/reply',
      );
      expect(r.status).toBe(200);
      expect(r.body.replayed).toBe(false);
      expect(r.body.screen_id).not.toBe(victimScreen);
    },
  },
  {
    name: 'the stream never carries the victim’s rows',
    async run(i) {
      const st = await openStream(s.url, i.token);
      await s.core.threads.say(victim.userId, victim.agentId, { text: 'more secret' });
      const own = await s.core.threads.say(i.userId, i.agentId, { text: `own ${Math.random()}` });
      const events = await st.take(1);
      st.close();
      expect(events[0]!.data.id).toBe(own.id);
      await new Promise((r) => setTimeout(r, 50));
      expect(st.events.map((e) => e.data.agent?.id)).not.toContain(victim.agentId);
    },
  },
];

describe.each([
  ['another account', 'intruder@example.com'],
  ['another connector of the same account', 'victim@example.com'],
])('from %s', (_label, email) => {
  let intruder: Host;
  beforeAll(async () => {
    // The same account gets a second connector (a second machine) with its own profile.
    intruder = await pairedHost(s, email, email === 'victim@example.com' ? 'laptop' : 'main');
  });
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const before = snapshot();
    await c.run(intruder);
    // Rows the victim's own thread gets from the stream case are the victim's doing, not the intruder's.
    if (!c.name.startsWith('the stream')) expect(snapshot()).toBe(before);
  });
});
