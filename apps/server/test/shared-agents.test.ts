// Shared agents through the whole server (doc2): the isolation table across accounts with doc2's codes, and
// revoke (list refresh, thread closed, host write refused, silent push to a push service on 127.0.0.1).
import { startTestPushService, type TestPushService } from '@screen-service/push/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, type Reply, signUp, startTestServer, type TestServer } from './harness.js';

const SAFE = {
  terminal: 'off',
  files: 'off',
  reach: [],
  memory: 'off',
  runner: 'api',
  profile: 'own',
  extra_keys: 0,
};
const CONNECT = '/functions/v1/svc-connect';

let t: TestServer;
let ps: TestPushService;
let call: ReturnType<typeof client>;
let owner: { token: string; id: string; agentId: string; hostToken: string };
let holder: { token: string; id: string };
let stranger: { token: string; id: string; agentId: string };

async function person(email: string) {
  const s = await signUp(call, email);
  return { token: s.access_token, id: s.user.id };
}

beforeAll(async () => {
  ps = await startTestPushService();
  t = await startTestServer({ SVC_VAPID_SUBJECT: 'mailto:ops@example.com', SVC_OUTBOUND_LOOPBACK: '1' });
  call = client(t.base);
  const o = await person('owner@example.com');
  const created = (await call('POST', '/agents', { token: o.token, body: { name: 'Helper' } })).body;
  const paired = await call('POST', CONNECT, {
    body: {
      action: 'pair',
      code: created.pairing.code,
      remote_ref: 'helper',
      kind: 'hostfw',
      host_name: 'box',
    },
  });
  const hostToken = paired.body.connector_token as string;
  const beat = await call('POST', CONNECT, {
    token: hostToken,
    body: { action: 'heartbeat', sandbox: { helper: SAFE } },
  });
  expect(beat.body.agents[0]).toMatchObject({ client_safe: true, share_why: [] });
  owner = { ...o, agentId: created.agent.id, hostToken };
  await call('POST', `/agents/${owner.agentId}/messages`, { token: o.token, body: { text: 'owner secret' } });
  holder = await person('holder@example.com');
  const s = await person('stranger@example.com');
  const own = (await call('POST', '/agents', { token: s.token, body: { name: 'Mine' } })).body;
  stranger = { ...s, agentId: own.agent.id };
  await t.running.services.shares.grant(owner.id, { agent: 'helper', user: holder.id, hello: true });
  await call('POST', `/agents/${owner.agentId}/messages`, {
    token: holder.token,
    body: { text: 'holder secret' },
  });
});
afterAll(async () => {
  await t.close();
  await ps.close();
});

const code = (r: Reply) => [r.status, r.body?.error];
const bodies = (r: Reply) => (r.body.messages as { body: string }[]).map((m) => m.body);

describe('isolation across accounts (doc2 codes)', () => {
  const cases: [string, () => Promise<void>][] = [
    [
      'holder reads only their own thread of the shared agent',
      async () => {
        const r = await call('GET', `/agents/${owner.agentId}/messages`, { token: holder.token });
        expect(bodies(r)).toEqual(["Hi! I'm Helper; owner shared me with you.", 'holder secret']);
      },
    ],
    [
      'owner never reads the holder thread',
      async () => {
        const r = await call('GET', `/agents/${owner.agentId}/messages`, { token: owner.token });
        expect(bodies(r)).toEqual(['owner secret']);
      },
    ],
    [
      'a stranger gets agent_not_found on the shared agent, its thread and its settings',
      async () => {
        for (const r of [
          await call('GET', `/agents/${owner.agentId}/messages`, { token: stranger.token }),
          await call('POST', `/agents/${owner.agentId}/messages`, {
            token: stranger.token,
            body: { text: 'x' },
          }),
          await call('GET', `/agents/${owner.agentId}`, { token: stranger.token }),
          await call('PATCH', `/agents/${owner.agentId}`, {
            token: stranger.token,
            body: { push_muted: true },
          }),
        ])
          expect(code(r)).toEqual([404, 'agent_not_found']);
      },
    ],
    [
      'the holder cannot rename, restyle, set default, pair or delete (shared_agent 403)',
      async () => {
        for (const r of [
          await call('PATCH', `/agents/${owner.agentId}`, { token: holder.token, body: { name: 'Mine' } }),
          await call('PATCH', `/agents/${owner.agentId}`, {
            token: holder.token,
            body: { theme: { accent: '#123456' } },
          }),
          await call('PATCH', `/agents/${owner.agentId}`, {
            token: holder.token,
            body: { is_default: true },
          }),
          await call('POST', `/agents/${owner.agentId}/code`, { token: holder.token }),
          await call('DELETE', `/agents/${owner.agentId}`, { token: holder.token }),
        ])
          expect(code(r)).toEqual([403, 'shared_agent']);
      },
    ],
    [
      'the holder sees no remote_ref, connector or commands; mutes only their own grant',
      async () => {
        const row = (await call('GET', `/agents/${owner.agentId}`, { token: holder.token })).body;
        expect(row).toMatchObject({
          shared: true,
          presence: 'live',
          share_why: null,
          remote_ref: null,
          connector: null,
          commands: null,
        });
        const muted = await call('PATCH', `/agents/${owner.agentId}`, {
          token: holder.token,
          body: { push_muted: true },
        });
        expect(muted.body.push_muted).toBe(true);
        expect((await call('GET', `/agents/${owner.agentId}`, { token: owner.token })).body.push_muted).toBe(
          false,
        );
        await call('PATCH', `/agents/${owner.agentId}`, { token: holder.token, body: { push_muted: false } });
      },
    ],
    [
      "the management API serves the holder's shared row by the same rules (list, update, delete)",
      async () => {
        const agents = (body: Record<string, unknown>) =>
          call('POST', '/functions/v1/svc-agents', { token: holder.token, body });
        const listed = (await agents({ action: 'list' })).body.agents as { id: string; shared?: boolean }[];
        expect(listed.find((a) => a.id === owner.agentId)).toMatchObject({ shared: true });
        for (const r of [
          await agents({ action: 'update', id: owner.agentId, name: 'Mine' }),
          await agents({ action: 'delete', id: owner.agentId }),
          await agents({ action: 'pair_code', agent_id: owner.agentId }),
        ])
          expect(code(r)).toEqual([403, 'shared_agent']);
        const muted = await agents({ action: 'update', id: owner.agentId, push_muted: true });
        expect(muted.body.agent).toMatchObject({ id: owner.agentId, push_muted: true });
        await agents({ action: 'update', id: owner.agentId, push_muted: false });
      },
    ],
    [
      'no mentions in a shared thread (not_in_a_shared_thread)',
      async () => {
        const r = await call('POST', `/agents/${owner.agentId}/messages`, {
          token: holder.token,
          body: { text: 'hey @mine' },
        });
        expect(code(r)).toEqual([400, 'not_in_a_shared_thread']);
      },
    ],
    [
      'the holder reads none of the owner tables; owner grants list shows who, never the thread',
      async () => {
        const tables = (await call('GET', '/tables', { token: holder.token })).body;
        expect(JSON.stringify(tables)).not.toContain(owner.agentId);
        const given = (await call('GET', '/shares/given', { token: owner.token })).body.grants;
        expect(given.map((g: { user: { email: string } }) => g.user.email)).toEqual(['holder@example.com']);
        expect(JSON.stringify(given)).not.toContain('holder secret');
        expect((await call('GET', '/shares/given', { token: holder.token })).body.grants).toEqual([]);
      },
    ],
    [
      'nobody but the owner revokes',
      async () => {
        for (const token of [holder.token, stranger.token]) {
          const r = await call('POST', '/shares/revoke', {
            token,
            body: { agent_id: owner.agentId, user_id: holder.id },
          });
          expect(code(r)).toEqual([404, 'agent_not_found']);
        }
      },
    ],
  ];
  for (const [name, run] of cases) it(name, run);
});

describe('revoke', () => {
  it('leaves the list at once, closes the thread, refuses the host, pushes silently', async () => {
    const sub = ps.subscriber();
    await call('PUT', '/push/subscriptions', {
      token: holder.token,
      body: { endpoint: sub.endpoint, keys: sub.keys },
    });
    const r = await call('POST', '/shares/revoke', {
      token: owner.token,
      body: { agent_id: owner.agentId, user_id: holder.id },
    });
    expect(r.status).toBe(200);
    expect(r.body.revoked_at).not.toBeNull();
    const list = (await call('GET', '/agents', { token: holder.token })).body.agents;
    expect(list.map((a: { id: string }) => a.id)).not.toContain(owner.agentId);
    expect(code(await call('GET', `/agents/${owner.agentId}/messages`, { token: holder.token }))).toEqual([
      403,
      'agent_not_yours',
    ]);
    const sent = await call('POST', `/agents/${owner.agentId}/messages`, {
      token: holder.token,
      body: { text: 'x' },
    });
    expect(code(sent)).toEqual([403, 'agent_not_yours']);
    // The holder reads the agent's name, never its id (issue 38).
    expect(sent.body.message).toBe('Helper is no longer shared with you: its owner took it back.');
    expect(sent.body.message).not.toContain('agt_');
    const host = await call('POST', `${CONNECT}/messages/reply`, {
      token: owner.hostToken,
      body: {
        agent_id: owner.agentId,
        session: `${owner.agentId}~${holder.id}`,
        idempotency_key: 'late',
        text: 'late',
      },
    });
    expect(code(host)).toEqual([403, 'agent_not_yours']);
    const [push] = await ps.waitFor(1);
    expect(push!.payload).toEqual({ kind: 'revoked', agent_id: owner.agentId });
    expect(push!.headers.urgency).toBe('low');
  });
});
