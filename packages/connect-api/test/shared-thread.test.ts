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
