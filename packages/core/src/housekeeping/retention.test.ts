// Each retention rule on a movable clock, over the real SQLite store, through the one scheduler.
import fs from 'node:fs';
import path from 'node:path';
import { hashSecret, newId } from '@screen-service/registry/kernel';
import { createTestCore, seedConnection, seedUser, type TestCore } from '@screen-service/test-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newPageVersion } from '../threads/page-version.js';
import { createHousekeepingScheduler, type HousekeepingRun } from './housekeeping.js';
import {
  LAPSED_SIGN_IN_GRACE_MS,
  RELAY_RETENTION_MS,
  retentionJobs,
  UNATTACHED_PHOTO_MS,
} from './retention.js';

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.UTC(2026, 0, 1);

let core: TestCore;
beforeEach(() => {
  core = createTestCore({ clockStart: T0, seed: 7 });
});
afterEach(() => core.close());

const count = (table: string) => core.inspect.count(table);

async function thread() {
  const user = await seedUser(core.store, { at: T0 });
  const { agents, connector } = await seedConnection(core.store, user.id, ['bot'], 'mcp', { at: T0 });
  return { user, agent: agents[0]!, connector };
}

/** A row of the thread; `photoIds` are sent with it (bound in the row's own write, ADR 0217). */
async function say(
  userId: string,
  agentId: string,
  sender: 'agent' | 'person',
  handled = true,
  photoIds: string[] = [],
) {
  return core.store.threads.append(
    {
      id: newId('msg_'),
      userId,
      agentId,
      sender,
      kind: 'text',
      body: 'hi',
      createdAt: core.clock(),
      handledAt: sender === 'person' && !handled ? null : core.clock(),
      photoIds,
    },
    newPageVersion(),
  );
}

function scheduler(jobs = core.housekeepingJobs, holder = 'a', runs: HousekeepingRun[] = []) {
  return createHousekeepingScheduler({
    jobs,
    claims: core.store.housekeeping,
    holder,
    now: core.clock,
    intervalMs: 60_000,
    onRun: (r) => runs.push(r),
  });
}

const removed = (runs: HousekeepingRun[], name: string) => runs.find((r) => r.name === name)?.removed;

describe('retention rules', () => {
  it('relay-retention: thread rows live 90 days, then go with their screens and photo files', async () => {
    const { user, agent } = await thread();
    await say(user.id, agent.id, 'agent');
    const photo = await core.photos.upload(user.id, agent.id, {
      bytes: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]),
      contentType: 'image/jpeg',
    });
    await say(user.id, agent.id, 'person', true, [photo.id]);
    core.advance(DAY);
    await say(user.id, agent.id, 'agent');
    expect(fs.readdirSync(core.photoDir)).toHaveLength(1);

    core.advance(RELAY_RETENTION_MS - DAY - 1);
    expect(removed(await scheduler().runOnce(), 'relay-retention')).toBe(0);
    core.advance(2);
    expect(removed(await scheduler().runOnce(), 'relay-retention')).toBe(2);
    expect(await count('messages')).toBe(1);
    expect(await count('photos')).toBe(0);
    expect(fs.readdirSync(core.photoDir)).toHaveLength(0);
  });

  it('thread-limit: keeps the newest N rows per thread and every unanswered person row', async () => {
    const { user, agent } = await thread();
    const unanswered = await say(user.id, agent.id, 'person', false);
    for (let i = 0; i < 5; i++) await say(user.id, agent.id, 'agent');
    const other = await seedConnection(core.store, user.id, ['other'], 'mcp', { at: T0 });
    await say(user.id, other.agents[0]!.id, 'agent');
    const jobs = retentionJobs({ store: core.store, messagesPerThread: 3 });
    const runs: HousekeepingRun[] = [];
    await scheduler(jobs, 'a', runs).runOnce();
    expect(removed(runs, 'thread-limit')).toBe(2);
    const left = await core.inspect.rows('messages', { agent_id: agent.id });
    expect(left.map((r) => r.id)).toContain(unanswered.id);
    expect(left).toHaveLength(4);
    expect(await count('messages')).toBe(5);
    expect(() => retentionJobs({ store: core.store, messagesPerThread: 0 })).toThrow(/above 0/);
  });

  it('pairing-codes: expired codes and old wrong-code records go, live ones stay', async () => {
    const { user, agent } = await thread();
    await core.pairing.mintCode(user.id, agent.id);
    await core.store.pairing.recordFailure('203.0.113.9', core.clock(), 0);
    core.advance(10 * 60_000 + 1);
    const fresh = await seedConnection(core.store, user.id, ['fresh'], 'mcp', { at: T0 });
    await core.pairing.mintCode(user.id, fresh.agents[0]!.id);
    const runs: HousekeepingRun[] = [];
    await scheduler(undefined, 'a', runs).runOnce();
    expect(removed(runs, 'pairing-codes')).toBe(2);
    expect(await count('pairing_codes')).toBe(1);
    expect(await count('pair_attempts')).toBe(0);
  });

  it('sign-ins: lapsed OAuth requests, tokens (used refresh tokens too) and app sessions go a day after expiry', async () => {
    const { user, connector } = await thread();
    await core.accounts.signUp({ email: 'ada@example.com', password: 'a long passphrase' });
    const client = await core.store.oauth.createClient({
      id: newId('cli_'),
      secretHash: null,
      authMethod: 'none',
      name: 'app',
      redirectUris: ['http://127.0.0.1/cb'],
      metadata: {},
      createdAt: T0,
    });
    await core.store.oauth.createRequest({
      id: newId('req_'),
      clientId: client.id,
      redirectUri: 'http://127.0.0.1/cb',
      state: null,
      codeChallenge: 'x',
      scope: 'mcp',
      resource: 'http://127.0.0.1/functions/v1/svc-mcp',
      browserHash: 'b',
      createdAt: T0,
      expiresAt: T0 + 10 * 60_000,
      status: 'pending',
      userId: null,
      agentId: null,
      decidedAt: null,
      finishedAt: null,
      codeHash: null,
      codeExpiresAt: null,
      codeUsedAt: null,
      connectorId: null,
    });
    const token = (kind: 'access' | 'refresh', expiresAt: number, usedAt: number | null) => ({
      id: newId('tok_'),
      kind,
      tokenHash: hashSecret(newId('t')),
      connectorId: connector.id,
      userId: user.id,
      clientId: client.id,
      createdAt: T0,
      expiresAt,
      usedAt,
      revokedAt: null,
    });
    const used = token('refresh', T0 + 60 * DAY, T0 + 1);
    await core.store.oauth.addTokens([used, token('access', T0 + 60 * 60_000, null)]);
    expect(await count('oauth_tokens')).toBe(2);
    expect(await count('oauth_requests')).toBe(1);
    expect(await count('app_sessions')).toBe(1);

    // An hour past the access token's expiry: within the grace, nothing goes.
    core.advance(2 * 60 * 60_000);
    let runs: HousekeepingRun[] = [];
    await scheduler(undefined, 'a', runs).runOnce();
    expect(removed(runs, 'sign-ins')).toBe(0);
    // A day later the request and the access token go; the used refresh token waits for its own expiry.
    core.advance(LAPSED_SIGN_IN_GRACE_MS);
    runs = [];
    await scheduler(undefined, 'a', runs).runOnce();
    expect(removed(runs, 'sign-ins')).toBe(2);
    expect(await count('oauth_tokens')).toBe(1);
    core.advance(61 * DAY);
    runs = [];
    await scheduler(undefined, 'a', runs).runOnce();
    // The refresh token and the app session (30 days) by now; the thread rows are younger than 90 days.
    expect(removed(runs, 'sign-ins')).toBe(2);
    expect(await count('oauth_tokens')).toBe(0);
    expect(await count('app_sessions')).toBe(0);
  });

  it('unattached-photos: a photo never sent with an answer goes after a day, with its file', async () => {
    const { user, agent } = await thread();
    const upload = () =>
      core.photos.upload(user.id, agent.id, {
        bytes: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 9]),
        contentType: 'image/jpeg',
      });
    const stray = await upload();
    const sent = await upload();
    await say(user.id, agent.id, 'person', true, [sent.id]);
    core.advance(UNATTACHED_PHOTO_MS - 1);
    const runs: HousekeepingRun[] = [];
    await scheduler(undefined, 'a', runs).runOnce();
    expect(removed(runs, 'unattached-photos')).toBe(0);
    core.advance(2);
    runs.length = 0;
    await scheduler(undefined, 'a', runs).runOnce();
    expect(removed(runs, 'unattached-photos')).toBe(1);
    const ids = (await core.inspect.rows('photos')).map((r) => r.id);
    expect(ids).toEqual([sent.id]);
    expect(ids).not.toContain(stray.id);
    expect(fs.readdirSync(core.photoDir)).toHaveLength(1);
    expect(path.isAbsolute(core.photoDir)).toBe(true);
  });

  it('unheld-tables: the core wires the 30-day unheld table sweep as a job (and the revoked grants one)', async () => {
    expect(core.housekeepingJobs.map((j) => j.name)).toEqual([
      'relay-retention',
      'pairing-codes',
      'sign-ins',
      'unattached-photos',
      'unheld-tables',
      'revoked-grants',
    ]);
  });
});

describe('the scheduler', () => {
  it('runs each job once per period across instances: a second holder is skipped until the claim lapses', async () => {
    let calls = 0;
    const job = { name: 'count', run: async () => ++calls };
    const a = scheduler([job], 'a');
    const b = scheduler([job], 'b');
    const [ra, rb] = await Promise.all([a.runOnce(), b.runOnce()]);
    expect(calls).toBe(1);
    expect([ra[0]!.skipped, rb[0]!.skipped].sort()).toEqual([false, true]);
    core.advance(60_000);
    const rb2 = await b.runOnce();
    expect(rb2[0]).toMatchObject({ skipped: false, removed: 2 });
  });

  it('a failing job is reported and the others still run; two jobs with one name are refused', async () => {
    const runs: HousekeepingRun[] = [];
    const s = scheduler(
      [
        { name: 'boom', run: async () => Promise.reject(new Error('disk gone')) },
        { name: 'fine', run: async () => 3 },
      ],
      'a',
      runs,
    );
    await s.runOnce();
    expect((runs[0]!.error as Error).message).toBe('disk gone');
    expect(runs[1]).toMatchObject({ name: 'fine', removed: 3, skipped: false });
    expect(() =>
      scheduler([
        { name: 'x', run: async () => 0 },
        { name: 'x', run: async () => 0 },
      ]),
    ).toThrow(/named "x"/);
  });

  it('start runs a pass at once and stop waits for it', async () => {
    let calls = 0;
    const s = scheduler([{ name: 'n', run: async () => ++calls }]);
    s.start();
    await s.stop();
    expect(calls).toBe(1);
  });
});
