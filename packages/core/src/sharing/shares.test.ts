// Shared agents through the whole core: client-safe from real heartbeats, templates, invites and claims,
// grants, shared threads served to the host as `<agent_id>~<user_id>`, revoke and the 30-day purge.
import { createECDH, randomBytes } from 'node:crypto';
import type { ConnectionPrincipal } from '@screen-service/registry/hosts';
import { createTestCore, seedConnection, type TestCore } from '@screen-service/test-kit';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HostMessage } from '../host-messages/host-transport.js';
import { readAnswers } from './invite-answers.js';
import {
  createRevokedGrantsJob,
  REVOKED_GRANT_RETENTION_MS,
  writeGrant,
  writeTemplate,
} from './share-writes.js';
import { INVITE_TTL_MS } from './shares.js';

const SAFE = {
  terminal: 'off',
  files: 'off',
  reach: [],
  memory: 'off',
  runner: 'api',
  profile: 'own',
  extra_keys: 0,
};

let core: TestCore;
let owner: { id: string };
let client: { id: string };
let other: { id: string };
let host: ConnectionPrincipal;
let agentId: string;

const beat = (report: Record<string, unknown> | undefined) =>
  core.hosts.heartbeat(host, report ? { sandbox: { main: report } } : {});
const signUp = async (email: string) =>
  (await core.accounts.signUp({ email, password: 'a long password' })).user;

beforeEach(async () => {
  core = createTestCore({ seed: 7 });
  owner = await signUp('owner@example.com');
  client = await signUp('client@example.com');
  other = await signUp('other@example.com');
  const c = await seedConnection(core.store, owner.id, ['main'], 'hostfw');
  host = await core.hostAuth.verify(c.token);
  agentId = c.agents[0]!.id;
});
afterEach(() => core.close());

describe('client-safe (doc2 five rules, through the heartbeat)', () => {
  const broken: [string, Record<string, unknown>][] = [
    ['profile', { ...SAFE, extra_keys: 2 }],
    ['sandbox', { ...SAFE, terminal: 'local' }],
    ['reach', { ...SAFE, reach: ['cron'] }],
    ['memory', { ...SAFE, memory: 'shared' }],
    ['runner', { ...SAFE, runner: 'cli-agent' }],
  ];
  for (const [rule, report] of broken) {
    it(`a report breaking "${rule}" is not safe, names the rule, and the grant is refused`, async () => {
      await beat(SAFE);
      expect((await core.shares.safe(owner.id, 'main')).client_safe).toBe(true);
      const hb = await beat(report);
      expect(hb.agents[0]).toMatchObject({ client_safe: false, share_why: [rule] });
      expect(await core.shares.safe(owner.id, 'main')).toMatchObject({
        client_safe: false,
        share_why: [rule],
      });
      await expect(core.shares.grant(owner.id, { agent: 'main', user: client.id })).rejects.toMatchObject({
        code: 'NOT_CLIENT_SAFE',
        message: expect.stringContaining(`failed rule: ${rule}`),
      });
    });
  }

  it('no report clears the mark (no_report) and a safe report sets it', async () => {
    await beat(SAFE);
    expect((await core.store.agents.get(agentId))!.clientSafe).toBe(true);
    await beat(undefined);
    expect(await core.shares.safe(owner.id, 'main')).toMatchObject({
      client_safe: false,
      share_why: ['no_report'],
    });
  });

  it('every grant and template write checks the rule in its own transaction; nothing unsafe is written', async () => {
    await beat({ ...SAFE, memory: 'shared' });
    const grant = {
      id: 'grt_x',
      agentId,
      ownerId: owner.id,
      userId: client.id,
      role: 'user' as const,
      theme: {},
      firstMessage: null,
      template: null,
      inviteId: null,
      pushMuted: false,
      sharedBy: 'O',
      grantedAt: 1,
    };
    await expect(writeGrant(core.store, grant)).rejects.toMatchObject({
      code: 'NOT_CLIENT_SAFE',
      message: expect.stringContaining('failed rule: memory'),
    });
    const template = {
      ownerId: owner.id,
      name: 'family',
      title: 'Family',
      sharedBy: 'O',
      updatedAt: 1,
      items: [{ agentId, theme: {}, firstMessage: 'Hi', sort: 0 }],
    };
    await expect(writeTemplate(core.store, template, () => 'tpl_x')).rejects.toMatchObject({
      code: 'NOT_CLIENT_SAFE',
    });
    // Safe now, but not the sharer's own agent: refused all the same.
    await beat(SAFE);
    await expect(writeGrant(core.store, { ...grant, ownerId: other.id })).rejects.toMatchObject({
      code: 'NOT_CLIENT_SAFE',
    });
    await expect(
      writeTemplate(core.store, { ...template, ownerId: other.id }, () => 'tpl_y'),
    ).rejects.toMatchObject({ code: 'NOT_CLIENT_SAFE' });
    expect(await core.store.shares.listGiven(owner.id)).toEqual([]);
    expect(await core.store.shares.listGiven(other.id)).toEqual([]);
    expect(await core.store.shares.listTemplates(owner.id)).toEqual([]);
    expect(await core.store.shares.listTemplates(other.id)).toEqual([]);
    // The owner's safe agent passes.
    expect((await writeGrant(core.store, grant)).sort).toBe(0);
    expect((await writeTemplate(core.store, template, () => 'tpl_z')).id).toBe('tpl_z');
  });
});

describe('templates, invites and claims', () => {
  beforeEach(async () => {
    await beat(SAFE);
  });

  it('checks template input and edits change future claims only', async () => {
    await expect(
      core.shares.saveTemplate(owner.id, { name: 'Bad Name', title: 'x', items: [] }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'name' });
    await expect(
      core.shares.saveTemplate(owner.id, {
        name: 'fam',
        title: 'x'.repeat(61),
        items: [{ agent: 'main', first_message: 'Hi' }],
      }),
    ).rejects.toMatchObject({ field: 'title' });
    await expect(
      core.shares.saveTemplate(owner.id, {
        name: 'fam',
        title: 'Fam',
        items: [{ agent: 'main', first_message: 'x'.repeat(2001) }],
      }),
    ).rejects.toMatchObject({ field: 'items[0].first_message' });
    await expect(
      core.shares.saveTemplate(owner.id, {
        name: 'fam',
        title: 'Fam',
        items: [{ agent: 'main', first_message: 'Hi', theme: { note: 'x'.repeat(3000) } }],
      }),
    ).rejects.toMatchObject({ field: 'theme' });
    const t = await core.shares.saveTemplate(owner.id, {
      name: 'fam',
      title: 'Family',
      shared_by: 'Olga',
      items: [{ agent: 'main', first_message: 'Hello there, first version.' }],
    });
    expect(t.items[0]!.agent.handle).toBe('main');
    const first = await core.shares.createInvite(owner.id, { template: 'fam', first_name: 'Cleo' });
    await core.shares.approveInvite(owner.id, first.invite_id);
    await core.shares.claim(client.id, first.token);
    await core.shares.saveTemplate(owner.id, {
      name: 'fam',
      title: 'Family',
      shared_by: 'Olga',
      items: [{ agent: 'main', first_message: 'Second version.' }],
    });
    const grants = await core.store.shares.listHeld(client.id);
    expect(grants[0]!.firstMessage).toBe('Hello there, first version.');
    expect((await core.shares.listTemplates(owner.id)).map((x) => x.items[0]!.first_message)).toEqual([
      'Second version.',
    ]);
  });

  it('a claim grants each safe item, skips the rest, writes first messages on top and sets first_name', async () => {
    const c2 = await seedConnection(core.store, owner.id, ['risky'], 'hostfw');
    const host2 = await core.hostAuth.verify(c2.token);
    await core.hosts.heartbeat(host2, { sandbox: { risky: SAFE } });
    await core.shares.saveTemplate(owner.id, {
      name: 'two',
      title: 'Two agents',
      items: [
        { agent: 'main', first_message: 'Welcome! I am main.' },
        { agent: 'risky', first_message: 'text "Hi from risky"' },
      ],
    });
    const invite = await core.shares.createInvite(owner.id, { template: 'two', first_name: 'Cleo' });
    expect(invite.link).toMatch(/\/#\/invite\/svc_inv_/);
    await expect(core.shares.claim(client.id, invite.token)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await core.shares.approveInvite(owner.id, invite.invite_id);
    // risky stops being safe before the claim: skipped, the claim still succeeds.
    await core.hosts.heartbeat(host2, { sandbox: { risky: { ...SAFE, runner: 'cli-agent' } } });
    expect((await core.shares.previewInvite(invite.token)).claimable).toBe(true);
    const claimed = await core.shares.claim(client.id, invite.token);
    expect(claimed.granted.map((g) => g.agent_id)).toEqual([agentId]);
    expect(claimed.skipped).toEqual([
      { agent_id: c2.agents[0]!.id, name: c2.agents[0]!.name, share_why: ['runner'] },
    ]);
    await expect(core.shares.claim(other.id, invite.token)).rejects.toMatchObject({ code: 'CONFLICT' });
    expect((await core.store.users.findById(client.id))!.firstName).toBe('Cleo');
    const page = await core.threads.page(client.id, agentId);
    expect(page.messages.map((m) => [m.body, m.meta.first])).toEqual([['Welcome! I am main.', true]]);
    const list = await core.agents.list(client.id);
    const row = list.find((a) => a.id === agentId)!;
    expect(row).toMatchObject({
      shared: true,
      shared_by: 'owner',
      first_message: 'Welcome! I am main.',
      client_safe: true,
      presence: 'live',
      share_why: null,
      remote_ref: null,
      connector: null,
      commands: null,
    });
    // The owner's own row says which rules it breaks (none) and is not shared.
    expect((await core.agents.list(owner.id)).find((a) => a.id === agentId)).toMatchObject({
      shared: false,
      share_why: [],
    });
  });

  it('an invite link expires after 7 days and says when (issue 46)', async () => {
    await core.shares.saveTemplate(owner.id, {
      name: 'week',
      title: 'Week',
      items: [{ agent: 'main', first_message: 'Hello.' }],
    });
    const invite = await core.shares.createInvite(owner.id, { template: 'week' });
    await core.shares.approveInvite(owner.id, invite.invite_id);
    const made = core.clock();
    expect(Date.parse(invite.expires_at) - made).toBe(INVITE_TTL_MS);
    expect((await core.shares.previewInvite(invite.token)).expires_at).toBe(invite.expires_at);
    core.advance(INVITE_TTL_MS + 1000);
    await expect(core.shares.previewInvite(invite.token)).rejects.toThrow(/expired \(links last 7 days\)/);
    await expect(core.shares.claim(client.id, invite.token)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('plan parses back through send (JSON and a flattened tap line)', async () => {
    const plan = await core.shares.plan(owner.id);
    expect(plan.agents).toBe('main');
    for (const key of Object.keys(plan)) expect(key).not.toMatch(/\s/);
    const sent = await core.shares.send(owner.id, JSON.stringify({ ...plan, first_name: 'Cleo' }));
    expect(sent).toMatchObject({ approved: true, template: plan.template });
    expect((await core.shares.claim(client.id, sent.token)).granted).toHaveLength(1);
    const line = `[svc] invite form template=tap-plan title=Our agents shared_by=Olga agents=main hello_main=Hi there, from a tap line`;
    expect(readAnswers(line)).toMatchObject({ title: 'Our agents', hello_main: 'Hi there, from a tap line' });
    const viaTap = await core.shares.send(owner.id, line);
    await core.shares.claim(other.id, viaTap.token);
    expect((await core.threads.page(other.id, agentId)).messages[0]!.body).toBe('Hi there, from a tap line');
  });
});

describe('shared threads and revoke', () => {
  let got: HostMessage[];
  let close: () => void;
  beforeEach(async () => {
    await beat(SAFE);
    await core.shares.grant(owner.id, { agent: 'main', user: 'client@example.com', hello: true, by: 'Olga' });
    got = [];
    close = await core.hostTransport.open(host, { send: (m) => got.push(m), end: () => {} });
  });
  afterEach(() => close());
  // The host stream delivers asynchronously: wait for what should arrive, never a fixed time.
  const texts = (session?: string) =>
    got.filter((m) => session === undefined || m.session === session).map((m) => m.text);

  it('serves the holder as <agent_id>~<user_id>, answers into their thread only', async () => {
    await core.threads.say(owner.id, agentId, { text: 'owner here' });
    await core.threads.say(client.id, agentId, { text: 'client here' });
    await vi.waitFor(() => expect(got).toHaveLength(2));
    expect(got.map((m) => [m.session, m.text])).toEqual([
      [agentId, 'owner here'],
      [`${agentId}~${client.id}`, 'client here'],
    ]);
    const row = got[1]!;
    await core.hostTransport.turn(host, { agent_id: agentId, session: row.session, rows: [row.id] });
    await core.hostTransport.reply(host, {
      agent_id: agentId,
      session: row.session,
      idempotency_key: 'k1',
      text: 'hi @helper, you said client here',
      turn: [row.id],
    });
    const clientPage = (await core.threads.page(client.id, agentId)).messages.map((m) => m.body);
    expect(clientPage).toEqual([
      "Hi! I'm main; Olga shared me with you.",
      'client here',
      'hi helper, you said client here',
    ]);
    const ownerPage = (await core.threads.page(owner.id, agentId)).messages.map((m) => m.body);
    expect(ownerPage).toEqual(['owner here']);
  });

  it('pauses while not client-safe: presence paused, host neither gets nor writes shared rows', async () => {
    const told: string[] = [];
    const off = core.notifier.subscribe(client.id, (e) => told.push(e.type));
    await beat({ ...SAFE, reach: ['delegation'] });
    off();
    expect(told).toContain('agents');
    expect((await core.agents.list(client.id)).find((a) => a.id === agentId)).toMatchObject({
      presence: 'paused',
      client_safe: false,
    });
    const shared = `${agentId}~${client.id}`;
    await core.threads.say(client.id, agentId, { text: 'anyone?' });
    // The owner's next line reaches the stream after the holder's, had that one been sent.
    await core.threads.say(owner.id, agentId, { text: 'marker' });
    await vi.waitFor(() => expect(texts(agentId)).toEqual(['marker']));
    expect(texts(shared)).toEqual([]);
    await expect(
      core.hostTransport.reply(host, {
        agent_id: agentId,
        session: `${agentId}~${client.id}`,
        idempotency_key: 'k2',
        text: 'sneaky',
      }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await beat(SAFE);
    // Safe again: the open stream gets what the holder wrote meanwhile, and so does a new one.
    await vi.waitFor(() => expect(texts(shared)).toEqual(['anyone?']));
    const again: HostMessage[] = [];
    const stop = await core.hostTransport.open(host, { send: (m) => again.push(m), end: () => {} });
    stop();
    expect(again.filter((m) => m.session === shared).map((m) => m.text)).toEqual(['anyone?']);
  });

  it('holder rules: shared_agent settings, no mentions, owner-only taps ignored', async () => {
    for (const patch of [{ name: 'Mine' }, { theme: { accent: '#112233' } }, { is_default: true }]) {
      await expect(core.agents.update(client.id, agentId, patch)).rejects.toMatchObject({
        code: 'SHARED_AGENT',
      });
    }
    await expect(core.deleteAgent(client.id, agentId)).rejects.toMatchObject({ code: 'SHARED_AGENT' });
    await expect(core.agents.mintCode(client.id, agentId)).rejects.toMatchObject({ code: 'SHARED_AGENT' });
    expect(await core.agents.update(client.id, agentId, { push_muted: true, sort: 5 })).toMatchObject({
      push_muted: true,
      sort: 5,
    });
    expect((await core.store.agents.get(agentId))!.pushMuted).toBe(false);
    await expect(core.threads.say(client.id, agentId, { text: 'ask @coach too' })).rejects.toMatchObject({
      code: 'NOT_IN_A_SHARED_THREAD',
    });
    // An email address is not a mention.
    await core.threads.say(client.id, agentId, { text: 'mail me at me@example.com' });
    const shown = await core.hostTransport.reply(host, {
      session: `${agentId}~${client.id}`,
      agent_id: agentId,
      idempotency_key: 'k3',
      lines: 'choose@need-budget "Approve budget?" Yes|No\nchoose@lunch "Lunch?" Soup|Salad',
    });
    await vi.waitFor(() => expect(texts()).toContain('mail me at me@example.com'));
    got.length = 0;
    await core.threads.tap(client.id, agentId, {
      screen_id: shown.screen_id,
      event: { id: 'need-budget', value: 'Yes' },
    });
    await core.threads.tap(client.id, agentId, {
      screen_id: shown.screen_id,
      event: { id: 'lunch', value: 'Soup' },
    });
    // The ignored tap came first: had it been sent, it would be before lunch.
    await vi.waitFor(() => expect(got.map((m) => m.event?.id)).toContain('lunch'));
    expect(got.map((m) => m.event?.id)).toEqual(['lunch']);
  });

  it('isolation: a holder reads only their thread; others get agent_not_found; owner never reads it', async () => {
    await core.threads.say(client.id, agentId, { text: 'private to client' });
    await expect(core.threads.page(other.id, agentId)).rejects.toMatchObject({ code: 'AGENT_NOT_FOUND' });
    await expect(core.threads.say(other.id, agentId, { text: 'x' })).rejects.toMatchObject({
      code: 'AGENT_NOT_FOUND',
    });
    expect(JSON.stringify(await core.threads.page(owner.id, agentId))).not.toContain('private to client');
    expect(JSON.stringify(await core.agents.list(other.id))).not.toContain(agentId);
    const given = await core.shares.given(owner.id);
    expect(given).toHaveLength(1);
    expect(JSON.stringify(given)).not.toContain('private to client');
  });

  it('revoke: gone from the list, thread closed, host refused, push queued, rows gone after 30 days', async () => {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    await core.push.subscribe(client.id, {
      endpoint: 'https://push.example/client',
      keys: {
        p256dh: ecdh.getPublicKey().toString('base64url'),
        auth: randomBytes(16).toString('base64url'),
      },
    });
    await core.threads.say(client.id, agentId, { text: 'before revoke' });
    const revoked = await core.shares.revoke(owner.id, { agent: 'main', user: client.id });
    expect(revoked.revoked_at).not.toBeNull();
    // The owner's client learns the holder's id and first name, not their email (issue 46).
    expect(revoked.user).toEqual({ id: client.id, first_name: expect.toBeOneOf([null, expect.any(String)]) });
    expect(JSON.stringify(revoked)).not.toContain((await core.store.users.findById(client.id))!.email);
    expect(
      (await core.inspect.rows('push_outbox', { user_id: client.id })).map((r) => [r.kind, r.agent_id]),
    ).toEqual([['revoked', agentId]]);
    expect((await core.agents.list(client.id)).map((a) => a.id)).not.toContain(agentId);
    await expect(core.threads.page(client.id, agentId)).rejects.toMatchObject({ code: 'AGENT_NOT_YOURS' });
    await expect(core.threads.say(client.id, agentId, { text: 'x' })).rejects.toMatchObject({
      code: 'AGENT_NOT_YOURS',
    });
    await expect(
      core.hostTransport.reply(host, {
        session: `${agentId}~${client.id}`,
        agent_id: agentId,
        idempotency_key: 'k4',
        text: 'late',
      }),
    ).rejects.toMatchObject({ code: 'AGENT_NOT_YOURS' });
    const job = createRevokedGrantsJob(core.store);
    expect(job.name).toBe('revoked-grants');
    const rows = () => core.inspect.count('messages', { user_id: client.id, agent_id: agentId });
    core.advance(REVOKED_GRANT_RETENTION_MS - 1000);
    expect(await job.run(core.clock())).toBe(0);
    expect(await rows()).toBe(2);
    core.advance(2000);
    expect(await job.run(core.clock())).toBe(1);
    expect(await rows()).toBe(0);
    expect(await core.inspect.count('grants')).toBe(0);
  });

  it('a later grant starts a new empty thread', async () => {
    await core.threads.say(client.id, agentId, { text: 'old thread' });
    await core.shares.revoke(owner.id, { agent: 'main', user: client.id });
    await core.shares.grant(owner.id, { agent: 'main', user: client.id });
    expect((await core.threads.page(client.id, agentId)).messages).toEqual([]);
    await expect(core.shares.grant(owner.id, { agent: 'main', user: client.id })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await expect(core.shares.grant(owner.id, { agent: 'main', user: owner.id })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });
});
