// A shared thread over the real host API on 127.0.0.1: the runner reports a safe sandbox, serves the owner
// as `<agent_id>` and a grant holder as `<agent_id>~<user_id>`, each answer lands in its own thread, and
// after a revoke the holder's session is refused.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedUser } from '@screen-service/test-kit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHostClient, HostApiError, runHost, writeHostState } from '../src/client.js';
import { type Served, serveConnect } from './serve.js';

const SAFE = {
  terminal: 'off',
  files: 'off',
  reach: [],
  memory: 'off',
  runner: 'api',
  profile: 'own',
  extra_keys: 0,
};

let s: Served;
let dir: string;
beforeAll(async () => {
  s = await serveConnect();
  dir = await mkdtemp(join(tmpdir(), 'svc-shared-host-'));
});
afterAll(async () => {
  await s.close();
  await rm(dir, { recursive: true, force: true });
});

it('serves the owner and a holder as separate sessions; a revoked session is refused', async () => {
  const owner = await seedUser(s.core.store, { email: 'owner@example.com' });
  const holder = await seedUser(s.core.store, { email: 'holder@example.com' });
  const { agent, pairing } = await s.core.agents.create(owner.id, { name: 'Echo' });
  const client = createHostClient({ url: s.url });
  const paired = await client.pair({ code: pairing!.code, remote_ref: 'main', host_name: 'box' });
  const statePath = join(dir, 'host.json');
  await writeHostState(statePath, {
    token: paired.connector_token!,
    connector_id: paired.connector.id,
    name: paired.connector.name,
    connect_url: client.connectUrl,
  });
  const stop = new AbortController();
  const sessions: string[] = [];
  const host = await runHost({
    statePath,
    signal: stop.signal,
    sandbox: () => SAFE,
    async handleTurn(turn, ctx) {
      sessions.push(turn.session);
      await ctx.reply({ text: `echo: ${turn.rows.map((r) => r.text).join(' / ')}` });
    },
  });
  try {
    expect((await s.core.store.agents.get(agent.id))!.clientSafe).toBe(true);
    await s.core.shares.grant(owner.id, { agent: 'echo', user: holder.id });
    await s.core.threads.say(owner.id, agent.id, { text: 'from owner' });
    await s.core.threads.say(holder.id, agent.id, { text: 'from holder' });
    const last = async (userId: string) =>
      (await s.core.threads.page(userId, agent.id)).messages.at(-1)?.body;
    // Waits on the two replies themselves (expect.poll: up to 10 s on a loaded machine).
    await expect
      .poll(async () => [await last(owner.id), await last(holder.id)])
      .toEqual(['echo: from owner', 'echo: from holder']);
    expect(sessions.sort()).toEqual([agent.id, `${agent.id}~${holder.id}`].sort());
    await s.core.shares.revoke(owner.id, { agent: 'echo', user: holder.id });
    client.setToken(paired.connector_token!);
    const refused = await client
      .reply({
        agent_id: agent.id,
        session: `${agent.id}~${holder.id}`,
        idempotency_key: 'after-revoke',
        text: 'late',
      })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(HostApiError);
    expect(refused).toMatchObject({ status: 403, code: 'agent_not_yours' });
  } finally {
    stop.abort();
    await host.done;
  }
});

// doc2 "Client-safe" (D2-56): the reference host re-reads the profile before each turn for someone else.
it('a profile that breaks a rule stops the holder turn: paused at once, the owner gets a card naming it', async () => {
  const owner = await seedUser(s.core.store, { email: 'owner2@example.com' });
  const holder = await seedUser(s.core.store, { email: 'holder2@example.com' });
  const { agent, pairing } = await s.core.agents.create(owner.id, { name: 'Careful' });
  const client = createHostClient({ url: s.url });
  const paired = await client.pair({ code: pairing!.code, remote_ref: 'careful', host_name: 'box' });
  const statePath = join(dir, 'careful.json');
  await writeHostState(statePath, {
    token: paired.connector_token!,
    connector_id: paired.connector.id,
    name: paired.connector.name,
    connect_url: client.connectUrl,
  });
  let report: Record<string, unknown> = SAFE;
  const stop = new AbortController();
  const sessions: string[] = [];
  const host = await runHost({
    statePath,
    signal: stop.signal,
    // No timed beat in this test: the service keeps the safe verdict until the host itself says otherwise.
    heartbeatEveryMs: 60_000,
    sandbox: () => report,
    async handleTurn(turn, ctx) {
      sessions.push(turn.session);
      await ctx.reply({ text: `echo: ${turn.rows.map((r) => r.text).join(' / ')}` });
    },
  });
  try {
    await s.core.shares.grant(owner.id, { agent: 'careful', user: holder.id });
    // The profile changes on the machine (memory turned on) between heartbeats.
    report = { ...SAFE, memory: 'shared' };
    await s.core.threads.say(holder.id, agent.id, { text: 'are you there?' });
    const ownerRows = async () => (await s.core.threads.page(owner.id, agent.id)).messages;
    await expect
      .poll(async () => (await ownerRows()).map((m) => m.body).join('\n'))
      .toContain('its profile broke **memory** (memory off)');
    const card = (await ownerRows()).find((m) => m.kind === 'screen')!;
    expect(card.meta.text).toBe('Careful is paused for the people you share it with: it broke memory.');
    expect(card.screen?.lines).toContain('group card "Paused for the people you share it with"');
    // The heartbeat went at once: the holder's list shows the agent paused by its owner.
    expect((await s.core.store.agents.get(agent.id))!.clientSafe).toBe(false);
    const held = (await s.core.agents.list(holder.id)).find((a) => a.id === agent.id);
    expect(held?.presence).toBe('paused');
    expect(sessions).toEqual([]);
    expect((await s.core.threads.page(holder.id, agent.id)).messages.map((m) => m.body)).toEqual([
      'are you there?',
    ]);

    // Fixed on the machine: the next heartbeat passes, and the waiting message is answered (once).
    report = SAFE;
    await host.heartbeat();
    await expect
      .poll(async () => (await s.core.threads.page(holder.id, agent.id)).messages.at(-1)?.body)
      .toBe('echo: are you there?');
    expect((await s.core.store.agents.get(agent.id))!.clientSafe).toBe(true);
    expect(sessions).toEqual([`${agent.id}~${holder.id}`]);
  } finally {
    stop.abort();
    await host.done;
  }
});
