// createCore end to end on a real SQLite file (the test kit): the use cases issue 14 moved into the core.
import fs from 'node:fs';
import path from 'node:path';
import { MAX_PHOTO_BYTES } from '@screen-service/photos';
import { colorFromName } from '@screen-service/registry/agents';
import { connectionState, isConnectionLive } from '@screen-service/registry/hosts';
import { isServiceError, normalizeCode, seededRandom } from '@screen-service/registry/kernel';
import { MOUNTS, serviceUrls } from '@screen-service/registry/mounts';
import { createDiskPhotoFiles } from '@screen-service/store-sqlite';
import { createTestCore, seedConnection, seedUser, type TestCore } from '@screen-service/test-kit';
import { AGENT_COLOR_HEX, seedAccent, seedColor } from '@screen-service/theme';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newPageVersion } from './threads/page-version.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const codeOf = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    return isServiceError(e) ? e.code : String(e);
  }
  return 'resolved';
};

let core: TestCore;
beforeEach(() => {
  core = createTestCore({ seed: 7, urls: 'http://127.0.0.1:8787' });
});
afterEach(() => core.close());

describe('mounts', () => {
  it('builds every public URL from one base, and refuses a base that is not http(s)', () => {
    const u = serviceUrls('https://svc.example/');
    expect(u).toEqual({
      baseUrl: 'https://svc.example',
      appUrl: 'https://svc.example/functions/v1/svc-app',
      agentsUrl: 'https://svc.example/functions/v1/svc-agents',
      connectUrl: 'https://svc.example/functions/v1/svc-connect',
      mcpUrl: 'https://svc.example/functions/v1/svc-mcp',
      oauthUrl: 'https://svc.example/functions/v1/svc-oauth',
      photosUrl: 'https://svc.example/functions/v1/svc-app/photos',
      connectPageUrl: 'https://svc.example/connect',
    });
    expect(Object.values(MOUNTS).every((m) => m.startsWith('/'))).toBe(true);
    expect(() => serviceUrls('svc.example')).toThrow(/absolute URL/);
    expect(() => serviceUrls('ftp://svc.example')).toThrow(/http/);
  });
});

describe('6-digit codes', () => {
  it('normalises 123456, "123 456" and "123-456" alike, and nothing else', () => {
    for (const typed of ['123456', '123 456', '123-456', ' 12-34 56 '])
      expect(normalizeCode(typed)).toBe('123456');
    for (const bad of ['12345', '1234567', '12a456', '', null, 123456]) expect(normalizeCode(bad)).toBeNull();
  });

  it('pairing takes a code typed with a dash (it refused it before issue 14)', async () => {
    const user = await seedUser(core.store);
    const { pairing } = await core.agents.create(user.id, { name: 'Coach' });
    const dashed = `${pairing!.code.slice(0, 3)}-${pairing!.code.slice(3)}`;
    const r = await core.pairing.pair({
      code: dashed,
      remote_ref: 'coach',
      kind: 'mcp',
      host_name: 'laptop',
      clientAddr: 'a',
    });
    expect(r.connector_token).toMatch(/^svc_ct_/);
  });

  it('counts wrong codes per address and stops the 11th within 10 minutes, then lets it try again', async () => {
    const pair = (code: string, clientAddr: string) =>
      codeOf(core.pairing.pair({ code, remote_ref: 'x', kind: 'mcp', host_name: 'h', clientAddr }));
    for (let i = 0; i < 10; i++) expect(await pair('000-000', 'mallory')).toBe('INVALID_OR_EXPIRED_CODE');
    expect(await pair('000-000', 'mallory')).toBe('TOO_MANY_ATTEMPTS');
    expect(await pair('000-000', 'alice')).toBe('INVALID_OR_EXPIRED_CODE');
    core.advance(10 * 60_000 + 1);
    expect(await pair('000-000', 'mallory')).toBe('INVALID_OR_EXPIRED_CODE');
  });
});

describe('connection is live', () => {
  it('is one rule: missing, revoked, suspended, account suspended or live', async () => {
    const user = await seedUser(core.store);
    const { connector, agents } = await seedConnection(core.store, user.id, ['coach']);
    expect(connectionState(null)).toBe('missing');
    expect(connectionState(connector, user)).toBe('live');
    expect(connectionState({ ...connector, suspendedAt: 1 }, user)).toBe('suspended');
    expect(connectionState(connector, { ...user, suspendedAt: 1 })).toBe('account_suspended');
    expect(connectionState(connector, null)).toBe('account_missing');
    await core.agents.removeConnection(user.id, connector.id);
    const removed = await core.store.connectors.get(connector.id);
    expect(isConnectionLive(removed)).toBe(false);
    // The agent list derives its status from the same rule.
    expect((await core.agents.get(user.id, agents[0]!.id)).status).toBe('offline');
  });
});

describe('agent colours', () => {
  it('the colour a name gets is the one nearest the accent seeded for it (pill and look agree)', () => {
    const hue = (hex: string) => {
      const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255) as [
        number,
        number,
        number,
      ];
      const max = Math.max(r, g, b);
      const d = max - Math.min(r, g, b);
      const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
      return (h * 60 + 360) % 360;
    };
    const names = Array.from({ length: 200 }, (_, i) => `agent ${i}`).concat(['Weather', 'Coach', 'Cook']);
    for (const name of names) {
      const color = colorFromName(name);
      expect(color).toBe(seedColor(name));
      const h = hue(seedAccent(name));
      const want = h >= 19.5 && h < 109.5 ? 'butter' : h >= 109.5 && h < 199.5 ? 'mint' : 'lavender';
      // Within half a degree of a boundary the rounding of the hex may fall either way.
      const nearEdge = [20, 110, 200].some((edge) => Math.abs(h - edge) < 1.5);
      if (!nearEdge) expect(color, name).toBe(want);
      expect(AGENT_COLOR_HEX[color]).toMatch(/^#[0-9a-f]{6}$/);
    }
  });

  it('a new agent gets that colour', async () => {
    const user = await seedUser(core.store);
    const { agent } = await core.agents.create(user.id, { name: 'Weather' });
    expect(agent.color).toBe(seedColor('Weather'));
  });
});

describe('looks', () => {
  it('the registry stores a person-set look cleaned: known keys, words and hex kept, the rest dropped', async () => {
    const user = await seedUser(core.store);
    const { agent } = await core.agents.create(user.id, { name: 'Coach' });
    const saved = await core.agents.update(user.id, agent.id, {
      theme: {
        accent: '#3366FF',
        radius: ' Round ',
        font: 'comic',
        evil: '<script>',
        style: { screen: 'card', x: 1 },
      },
    });
    expect(saved.theme).toEqual({
      accent: '#3366ff',
      radius: 'round',
      ...(saved.theme.style ? { style: saved.theme.style } : {}),
    });
    expect(JSON.stringify(saved.theme)).not.toMatch(/evil|script|comic/);
  });

  it('a theme line in a screen is saved on the agent, merged and cleaned', async () => {
    const user = await seedUser(core.store);
    const { token, agents } = await seedConnection(core.store, user.id, ['coach']);
    const p = await core.connectionAuth.verify(token);
    await core.threadOps.show(p, { lines: 'timer 1m Tea\ntheme accent=#3366ff radius=round' });
    const after = await core.store.agents.get(agents[0]!.id);
    expect(after!.theme).toMatchObject({ accent: '#3366ff', radius: 'round', by: 'agent' });
    await core.threadOps.show(p, { lines: 'timer 1m Tea\ntheme radius=square' });
    expect((await core.store.agents.get(agents[0]!.id))!.theme).toMatchObject({
      accent: '#3366ff',
      radius: 'square',
    });
  });

  it('honours `at`: an agent line never overrides a newer person pick, nor an older line a newer look', async () => {
    const user = await seedUser(core.store);
    const { token, agents } = await seedConnection(core.store, user.id, ['coach']);
    const id = agents[0]!.id;
    const p = await core.connectionAuth.verify(token);
    const later = new Date(core.clock() + 60_000).toISOString();
    await core.store.agents.update(id, { theme: { accent: '#112233', at: later, by: 'user' } }, core.clock());
    await core.threadOps.show(p, { lines: 'timer 1m Tea\ntheme accent=#445566' });
    expect((await core.store.agents.get(id))!.theme).toMatchObject({ accent: '#112233', by: 'user' });
    core.advance(120_000);
    await core.threadOps.show(p, { lines: 'timer 1m Tea\ntheme accent=#445566' });
    expect((await core.store.agents.get(id))!.theme).toMatchObject({ accent: '#445566', by: 'agent' });
  });
});

describe('photos', () => {
  it('checks uploads: type, empty and size, with the field named', async () => {
    const user = await seedUser(core.store);
    const { agent } = await core.agents.create(user.id, { name: 'Coach' });
    const up = (contentType: string, bytes: unknown) =>
      core.photos.upload(user.id, agent.id, { contentType, bytes });
    await expect(up('text/plain', PNG)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      field: 'content-type',
    });
    await expect(up('image/png', Buffer.alloc(0))).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      field: 'body',
    });
    await expect(up('image/png', Buffer.alloc(MAX_PHOTO_BYTES + 1))).rejects.toMatchObject({ field: 'body' });
    await expect(up('image/png', 'not bytes')).rejects.toMatchObject({ field: 'body' });
    const ok = await up('Image/PNG; x=1', PNG);
    expect(ok.url).toMatch(/^http:\/\/127\.0\.0\.1:8787\/functions\/v1\/svc-app\/photos\/pho_/);
    // Another person's agent: refused, and the written file is removed again.
    const other = await seedUser(core.store);
    await expect(
      core.photos.upload(other.id, agent.id, { contentType: 'image/png', bytes: PNG }),
    ).rejects.toMatchObject({
      code: 'AGENT_NOT_FOUND',
    });
    expect(fs.readdirSync(core.photoDir)).toHaveLength(1);
  });

  it('refuses bytes that are not an image of the declared type (an HTML page sent as image/png)', async () => {
    const user = await seedUser(core.store);
    const { agent } = await core.agents.create(user.id, { name: 'Coach' });
    const html = Buffer.from('<html><script>alert(document.cookie)</script></html>');
    await expect(
      core.photos.upload(user.id, agent.id, { contentType: 'image/png', bytes: html }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'body', message: /not a PNG image/ });
    await expect(
      core.photos.upload(user.id, agent.id, { contentType: 'image/jpeg', bytes: PNG }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT', message: /not a JPG image/ });
    expect(fs.existsSync(core.photoDir)).toBe(false);
  });

  it('keeps each account within its photo quota and upload rate', async () => {
    const small = createTestCore({
      testStore: core.testStore,
      photoLimits: { maxBytes: PNG.length * 10, quotaBytes: PNG.length * 3 },
    });
    const user = await seedUser(small.store);
    const { agent } = await small.agents.create(user.id, { name: 'Coach' });
    const up = () => small.photos.upload(user.id, agent.id, { contentType: 'image/png', bytes: PNG });
    expect(small.photos.maxBytes).toBe(PNG.length * 10);
    for (let i = 0; i < 3; i++) await up();
    await expect(up()).rejects.toMatchObject({ code: 'LIMIT_EXCEEDED', message: /hold \d+ of \d+ bytes/ });
    // Another account has its own quota; the rate: a burst of 20, then 10 a minute.
    const other = await seedUser(small.store);
    const { agent: b } = await small.agents.create(other.id, { name: 'B' });
    const roomy = createTestCore({ testStore: core.testStore });
    const codes: string[] = [];
    for (let i = 0; i < 21; i++) {
      codes.push(await codeOf(roomy.photos.upload(other.id, b.id, { contentType: 'image/png', bytes: PNG })));
    }
    expect(codes.filter((c) => c === 'resolved')).toHaveLength(20);
    expect(codes.at(-1)).toBe('RATE_LIMITED');
    roomy.advance(6_001);
    await expect(
      codeOf(roomy.photos.upload(other.id, b.id, { contentType: 'image/png', bytes: PNG })),
    ).resolves.toBe('resolved');
    small.stopping.abort();
    roomy.stopping.abort();
  });

  it('an answer whose row names photos never bound still carries its own (rows of older releases)', async () => {
    const user = await seedUser(core.store);
    const other = await seedUser(core.store);
    const { token, agents } = await seedConnection(core.store, user.id, ['coach']);
    const { agents: otherAgents } = await seedConnection(core.store, other.id, ['coach']);
    const agent = agents[0]!;
    const p = await core.connectionAuth.verify(token);
    const mine = await core.photos.upload(user.id, agent.id, { contentType: 'image/png', bytes: PNG });
    const theirs = await core.photos.upload(other.id, otherAgents[0]!.id, {
      contentType: 'image/png',
      bytes: PNG,
    });
    // A row as releases before ADR 0217 could leave it: the attach was a second write, which a crash could cut.
    await core.store.threads.append(
      {
        id: 'msg_window',
        userId: user.id,
        agentId: agent.id,
        sender: 'person',
        kind: 'text',
        body: 'my plant',
        meta: { photos: [mine.id, theirs.id] },
        createdAt: Date.now(),
      },
      newPageVersion(),
    );
    const { answers } = await core.threadOps.answers(p, { wait: 0 });
    expect(answers).toHaveLength(1);
    // Its own photo, linked; another account's id named in the row is never read back.
    expect(answers[0]!.photos).toHaveLength(1);
    expect(answers[0]!.photos[0]).toContain(`/photos/${mine.id}`);
  });

  it('opens a photo only through a valid, unexpired link', async () => {
    const user = await seedUser(core.store);
    const { agent } = await core.agents.create(user.id, { name: 'Coach' });
    const { id, url } = await core.photos.upload(user.id, agent.id, { contentType: 'image/png', bytes: PNG });
    const q = new URL(url).searchParams;
    const opened = await core.photos.open(id, q.get('exp'), q.get('sig'));
    expect(opened.contentType).toBe('image/png');
    const chunks: Buffer[] = [];
    for await (const c of opened.body as AsyncIterable<Buffer>) chunks.push(c);
    expect(Buffer.concat(chunks).equals(PNG)).toBe(true);
    await expect(core.photos.open(id, q.get('exp'), 'x')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    core.advance(60 * 60_000 + 1);
    await expect(core.photos.open(id, q.get('exp'), q.get('sig'))).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('deleting an agent removes its photo files; the account deletion removes the rest', async () => {
    const signed = await core.accounts.signUp({
      email: 'ada@example.com',
      password: 'correct horse battery',
    });
    const principal = await core.accounts.verifyAccess(signed.access_token);
    const userId = principal.userId;
    const { agent: a } = await core.agents.create(userId, { name: 'A' });
    const { agent: b } = await core.agents.create(userId, { name: 'B' });
    await core.photos.upload(userId, a.id, { contentType: 'image/png', bytes: PNG });
    await core.photos.upload(userId, b.id, { contentType: 'image/png', bytes: PNG });
    expect(fs.readdirSync(core.photoDir)).toHaveLength(2);
    await core.deleteAgent(userId, a.id);
    expect(fs.readdirSync(core.photoDir)).toHaveLength(1);
    await core.deleteAccount(principal, 'correct horse battery');
    expect(fs.readdirSync(core.photoDir)).toHaveLength(0);
    expect(await core.store.photos.pendingRemovals(10)).toEqual([]);
  });

  it('a file that cannot be removed stays queued with the rows gone, and the next sweep removes it', async () => {
    const files = createDiskPhotoFiles(path.join(core.testStore.dir, 'flaky'));
    let failing = true;
    const flaky = {
      ...files,
      remove: async (n: string) => (failing ? Promise.reject(new Error('EBUSY')) : files.remove(n)),
    };
    const errors: string[] = [];
    const c2 = createTestCore({
      testStore: core.testStore,
      photoFiles: flaky,
      onPhotoRemoveError: (f) => errors.push(f),
    });
    const user = await seedUser(c2.store);
    const { agent } = await c2.agents.create(user.id, { name: 'A' });
    await c2.photos.upload(user.id, agent.id, { contentType: 'image/png', bytes: PNG });
    await c2.deleteAgent(user.id, agent.id);
    expect(await c2.store.photos.listByUser(user.id)).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(await c2.store.photos.pendingRemovals(10)).toEqual(errors);
    expect(fs.readdirSync(path.join(core.testStore.dir, 'flaky'))).toHaveLength(1);
    failing = false;
    expect(await c2.photos.sweep()).toEqual({ removed: 1, failed: 0 });
    expect(fs.readdirSync(path.join(core.testStore.dir, 'flaky'))).toHaveLength(0);
  });
});

describe('account use cases', () => {
  it('/me is the account as the app shows it', async () => {
    const user = await seedUser(core.store, { email: 'Ada@Example.com', at: Date.UTC(2026, 0, 2) });
    expect(await core.accounts.me(user.id)).toEqual({
      id: user.id,
      email: 'ada@example.com',
      created_at: '2026-01-02T00:00:00.000Z',
      time_zone: null,
      time_zone_pinned: false,
    });
    await expect(core.accounts.me('usr_nobody')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it("svc connect's create-and-pair: an agent paired as an MCP connection, or NOT_FOUND naming the fix", async () => {
    await seedUser(core.store, { email: 'ada@example.com' });
    const r = await core.connectAgent({ email: ' ADA@example.com ', agent: 'Coach', hostName: 'laptop' });
    expect(r.mcp_url).toBe('http://127.0.0.1:8787/functions/v1/svc-mcp');
    const p = await core.connectionAuth.verify(r.connector_token);
    expect((await core.threadOps.threads(p)).agents.map((a) => a.id)).toEqual([r.agent.id]);
    await expect(
      core.connectAgent({ email: 'nobody@example.com', agent: 'X', hostName: 'h' }),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringMatching(/svc user add --email nobody@example.com/),
    });
  });
});

describe('seeded randomness', () => {
  it('the same seed gives the same ids and codes', async () => {
    const a = seededRandom(3);
    const b = seededRandom(3);
    expect(Buffer.from(a.bytes(16))).toEqual(Buffer.from(b.bytes(16)));
    const c1 = createTestCore({ seed: 11 });
    const c2 = createTestCore({ seed: 11 });
    try {
      const u1 = await seedUser(c1.store, { random: c1.random });
      // On PostgreSQL both cores share one database: the first row goes so the second can take its id.
      await c1.store.users.delete(u1.id);
      const u2 = await seedUser(c2.store, { random: c2.random });
      expect(u1.id).toBe(u2.id);
    } finally {
      c1.close();
      c2.close();
    }
  });
});
