// The Store contract, written once: every implementation (SQLite, PostgreSQL) runs it (vitest's describe/it).
// Each rule the services rely on for atomicity or cascade is pinned here.

import { hashSecret, newId, ServiceError } from '@screen-service/registry/kernel';
import type { Store } from '@screen-service/registry/model';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/** One fresh, empty store for one test of the suite, and how to let it go. */
export interface StoreFixture {
  store: Store;
  close(): void | Promise<void>;
}

/**
 * Registers the Store conformance suite (vitest) for one implementation; `open` gives each test an empty store.
 *
 * @example
 * ```ts
 * describeStoreConformance('SQLite file', () => createTestStore());
 * ```
 */
export function describeStoreConformance(
  name: string,
  open: () => StoreFixture | Promise<StoreFixture>,
): void {
  describe(`Store conformance: ${name}`, () => {
    let f: StoreFixture;
    let store: Store;
    beforeEach(async () => {
      f = await open();
      store = f.store;
    });
    afterEach(async () => {
      await f.close();
    });

    const user = async () =>
      store.users.create({
        id: newId('usr_'),
        email: `${newId()}@example.com`.toLowerCase(),
        passwordHash: 'x',
        firstName: null,
        createdAt: 1,
        suspendedAt: null,
      });
    const agent = (
      userId: string,
      handle: string,
      extra: { isDefault?: boolean; connectorId?: string } = {},
    ) =>
      store.agents.create({
        id: newId('agt_'),
        userId,
        name: handle,
        handle,
        color: 'mint',
        kind: 'mcp',
        createdAt: Date.now(),
        ...extra,
      });
    const connector = (userId: string) =>
      store.connectors.create({
        id: newId('con_'),
        userId,
        name: 'h',
        kind: 'mcp',
        tokenHash: hashSecret(newId()),
        createdAt: 1,
        lastSeenAt: null,
        revokedAt: null,
        suspendedAt: null,
      });
    const defaults = async (userId: string) =>
      (await store.agents.listByUser(userId)).filter((a) => a.isDefault).map((a) => a.handle);
    const code = (p: Promise<unknown>) =>
      p.then(
        () => 'ok',
        (e: unknown) => (e instanceof ServiceError ? e.code : String(e)),
      );

    it('users: email unique, delete cascades to every owned row', async () => {
      const u = await user();
      expect(await code(store.users.create({ ...u, id: newId('usr_') }))).toBe('EMAIL_TAKEN');
      const c = await connector(u.id);
      const a = await agent(u.id, 'a', { connectorId: c.id });
      await store.threads.append({
        id: newId('msg_'),
        userId: u.id,
        agentId: a.id,
        sender: 'agent',
        kind: 'text',
        body: 'hi',
        createdAt: 1,
      });
      await store.users.delete(u.id);
      expect(await store.agents.get(a.id)).toBeNull();
      expect(await store.connectors.get(c.id)).toBeNull();
      expect(await store.threads.page({ agentId: a.id, userId: u.id, limit: 10 })).toEqual([]);
    });

    it('connectors: a token hash finds its connector with its account suspension in one read', async () => {
      const u = await user();
      const c = await connector(u.id);
      expect(await store.connectors.findByTokenHashWithAccount(c.tokenHash)).toEqual({
        connector: await store.connectors.get(c.id),
        account: { suspendedAt: null },
      });
      const held = await store.users.create({
        id: newId('usr_'),
        email: `${newId()}@example.com`.toLowerCase(),
        passwordHash: 'x',
        firstName: null,
        createdAt: 1,
        suspendedAt: 7,
      });
      const d = await connector(held.id);
      expect((await store.connectors.findByTokenHashWithAccount(d.tokenHash))?.account).toEqual({
        suspendedAt: 7,
      });
      await store.connectors.revoke(c.id, 9);
      expect((await store.connectors.findByTokenHashWithAccount(c.tokenHash))?.connector.revokedAt).toBe(9);
      expect(await store.connectors.findByTokenHashWithAccount(hashSecret('no such token'))).toBeNull();
    });

    it('threads: a push with unlessOpenAt is written only while no device holds the thread open', async () => {
      const u = await user();
      const a = await agent(u.id, 'a');
      const row = () => ({
        id: newId('msg_'),
        userId: u.id,
        agentId: a.id,
        sender: 'agent' as const,
        kind: 'text' as const,
        body: 'hi',
        createdAt: 100,
      });
      const screen = () => ({ id: newId('scr_'), lines: 'text hi', ops: [], taps: [] });
      const pushed = async () => (await store.threads.listPushIntents(u.id)).map((i) => i.messageId);
      await store.push.setPresence({ agentId: a.id, userId: u.id }, 'phone', 200);
      await store.threads.append(row(), { id: newId('push_'), unlessOpenAt: 150 });
      await store.threads.appendScreen(row(), screen(), { id: newId('push_'), unlessOpenAt: 199 });
      expect(await pushed()).toEqual([]);
      const late = await store.threads.append(row(), { id: newId('push_'), unlessOpenAt: 200 });
      const shown = await store.threads.appendScreen(row(), screen(), {
        id: newId('push_'),
        unlessOpenAt: 250,
      });
      const plain = await store.threads.append(row(), { id: newId('push_') });
      expect((await pushed()).sort()).toEqual([late.id, shown.message.id, plain.id].sort());
    });

    it('agents: first is default, setDefault clears the old, delete hands over to the first remaining', async () => {
      const u = await user();
      const a = await agent(u.id, 'a');
      const b = await agent(u.id, 'b');
      const c = await agent(u.id, 'c', { isDefault: true });
      expect(await defaults(u.id)).toEqual(['c']);
      await store.agents.setDefault(u.id, a.id, 2);
      expect(await defaults(u.id)).toEqual(['a']);
      await store.agents.reorder(u.id, [c.id, b.id, a.id], 3);
      await store.agents.delete(a.id, Date.now());
      expect(await defaults(u.id)).toEqual(['c']);
      expect((await store.agents.listByUser(u.id)).map((x) => x.handle)).toEqual(['c', 'b']);
    });

    it('agents: handle unique per user, remote_ref unique per connector', async () => {
      const u = await user();
      const v = await user();
      await agent(u.id, 'same');
      await agent(v.id, 'same');
      expect(await code(agent(u.id, 'same'))).toBe('HANDLE_TAKEN');
      const c = await connector(u.id);
      const mk = (handle: string) =>
        store.agents.create({
          id: newId('agt_'),
          userId: u.id,
          name: handle,
          handle,
          color: 'mint',
          kind: 'mcp',
          connectorId: c.id,
          remoteRef: 'ref',
          createdAt: 1,
        });
      await mk('r1');
      expect(await code(mk('r2'))).toBe('PROFILE_ALREADY_ADDED');
    });

    it('pairing: mint replaces unused codes; complete claims once', async () => {
      const u = await user();
      const a = await agent(u.id, 'a');
      const row = (id: string, secret: string) => ({
        id,
        userId: u.id,
        agentId: a.id,
        codeHash: hashSecret(secret),
        createdAt: 1,
        expiresAt: Date.now() + 60_000,
        usedAt: null,
        connectorId: null,
      });
      expect(await store.pairing.mint(row('p1', '111111'))).toBe(true);
      expect(await store.pairing.mint(row('p2', '222222'))).toBe(true);
      expect(await store.pairing.findUnused(hashSecret('111111'))).toBeNull();
      const c = await connector(u.id);
      const claim = () =>
        store.pairing.complete({
          codeId: 'p2',
          at: Date.now(),
          agentId: a.id,
          remoteRef: 'r',
          kind: 'mcp',
          connectorId: c.id,
        });
      // Exactly one of two racing claims wins; which one is up to the store (PostgreSQL runs them at once).
      expect((await Promise.all([claim(), claim()])).sort()).toEqual([false, true]);
      expect((await store.agents.get(a.id))?.connectorId).toBe(c.id);
    });

    it('sessions: a refresh token rotates once; revoking the family ends it', async () => {
      const u = await user();
      const s = {
        id: 's1',
        userId: u.id,
        familyId: 'f1',
        refreshHash: 'h1',
        createdAt: 1,
        expiresAt: Date.now() + 60_000,
        usedAt: null,
        revokedAt: null,
      };
      await store.sessions.create(s);
      const next = (id: string) => ({ ...s, id, refreshHash: `h-${id}` });
      expect(await store.sessions.rotate('s1', next('s2'), Date.now())).toBe(true);
      expect(await store.sessions.rotate('s1', next('s3'), Date.now())).toBe(false);
      expect(await store.sessions.familyLive('f1', Date.now())).toBe(true);
      await store.sessions.revokeFamily('f1', Date.now());
      expect(await store.sessions.familyLive('f1', Date.now())).toBe(false);
    });

    it("sessions: revoking a user ends each of the user's families and no one else's", async () => {
      const u = await user();
      const other = await user();
      const session = (id: string, userId: string, familyId: string) => ({
        id,
        userId,
        familyId,
        refreshHash: `h-${id}`,
        createdAt: 1,
        expiresAt: Date.now() + 60_000,
        usedAt: null,
        revokedAt: null,
      });
      await store.sessions.create(session('u1', u.id, 'phone'));
      await store.sessions.create(session('u2', u.id, 'laptop'));
      await store.sessions.create(session('o1', other.id, 'theirs'));
      await store.sessions.revokeUser(u.id, Date.now());
      expect(await store.sessions.familyLive('phone', Date.now())).toBe(false);
      expect(await store.sessions.familyLive('laptop', Date.now())).toBe(false);
      expect(await store.sessions.familyLive('theirs', Date.now())).toBe(true);
    });

    it('threads: claimAnswers returns person rows oldest first after a seq, each once', async () => {
      const u = await user();
      const a = await agent(u.id, 'a');
      const key = { agentId: a.id, userId: u.id };
      const write = (sender: 'agent' | 'person', body: string) =>
        store.threads.append({ id: newId('msg_'), ...key, sender, kind: 'text', body, createdAt: 1 });
      const p1 = await write('person', 'p1');
      await write('agent', 'a1');
      await write('person', 'p2');
      await write('person', 'p3');
      const claim = (afterSeq: number, limit = 10) =>
        store.threads.claimAnswers({ ...key, afterSeq, limit, at: 5 });
      const [x, y] = await Promise.all([claim(p1.seq, 1), claim(p1.seq, 1)]);
      expect([...x!, ...y!].map((m) => m.body).sort()).toEqual(['p2', 'p3']);
      expect((await claim(0)).map((m) => m.body)).toEqual(['p1']);
      expect(await claim(0)).toEqual([]);
      expect(await store.threads.countUnhandled(key)).toBe(0);
    });

    const client = () =>
      store.oauth.createClient({
        id: newId('cl_'),
        secretHash: null,
        authMethod: 'none',
        name: 'Test client',
        redirectUris: ['http://127.0.0.1/cb'],
        metadata: { client_uri: 'https://example.com' },
        createdAt: 1,
      });
    const request = async (clientId: string, expiresAt = Date.now() + 600_000) =>
      store.oauth.createRequest({
        id: newId('ar_'),
        clientId,
        redirectUri: 'http://127.0.0.1/cb',
        state: 's',
        codeChallenge: 'c'.repeat(43),
        scope: 'svc',
        resource: 'http://h/mcp',
        browserHash: hashSecret('browser'),
        createdAt: 1,
        expiresAt,
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
    const token = (kind: 'access' | 'refresh', connectorId: string, userId: string, clientId: string) => ({
      id: newId('tok_'),
      kind,
      tokenHash: hashSecret(newId()),
      connectorId,
      userId,
      clientId,
      createdAt: 1,
      expiresAt: Date.now() + 3_600_000,
      usedAt: null,
      revokedAt: null,
    });
    const oauthConnector = (userId: string) => ({
      id: newId('con_'),
      userId,
      name: 'Test client',
      kind: 'mcp' as const,
      tokenHash: hashSecret(newId()),
      createdAt: 1,
      lastSeenAt: null,
      revokedAt: null,
      suspendedAt: null,
      via: 'oauth' as const,
    });
    /** A request approved for `agentId` and finished with code `secret` valid for a minute. */
    const approved = async (clientId: string, userId: string, agentId: string, secret: string) => {
      const r = await request(clientId);
      const at = Date.now();
      expect(await store.oauth.decide(r.id, { status: 'approved', userId, agentId, at })).toMatchObject({
        status: 'approved',
        userId,
        agentId,
      });
      expect(
        await store.oauth.finish(r.id, { at, codeHash: hashSecret(secret), codeExpiresAt: at + 60_000 }),
      ).toBe(true);
      return r;
    };

    it('oauth: a request is decided once, only while pending and unexpired, and finished once', async () => {
      const c = await client();
      expect((await store.oauth.getClient(c.id))?.metadata).toEqual({ client_uri: 'https://example.com' });
      const u = await user();
      const a = await agent(u.id, 'a');
      const r = await request(c.id);
      expect(await store.oauth.finish(r.id, { at: 2, codeHash: null, codeExpiresAt: null })).toBe(false);
      const at = Date.now();
      const decided = await store.oauth.decide(r.id, { status: 'approved', userId: u.id, agentId: a.id, at });
      expect(decided?.decidedAt).toBe(at);
      expect(
        await store.oauth.decide(r.id, { status: 'denied', userId: null, agentId: null, at }),
      ).toBeNull();
      expect(await store.oauth.finish(r.id, { at, codeHash: hashSecret('k'), codeExpiresAt: at + 1 })).toBe(
        true,
      );
      expect(await store.oauth.finish(r.id, { at, codeHash: hashSecret('k2'), codeExpiresAt: at + 1 })).toBe(
        false,
      );
      expect((await store.oauth.findRequestByCodeHash(hashSecret('k')))?.id).toBe(r.id);
      const old = await request(c.id, 5);
      expect(
        await store.oauth.decide(old.id, { status: 'denied', userId: null, agentId: null, at }),
      ).toBeNull();
    });

    it('oauth: redeeming a code creates the connection, binds the agent and stores tokens, once', async () => {
      const c = await client();
      const u = await user();
      const a = await agent(u.id, 'a');
      const r = await approved(c.id, u.id, a.id, 'code-1');
      const con = oauthConnector(u.id);
      const tokens = [token('access', con.id, u.id, c.id), token('refresh', con.id, u.id, c.id)];
      const at = Date.now();
      const redeem = (connector = con) =>
        store.oauth.redeemCode({ requestId: r.id, at, connector, remoteRef: 'oauth', tokens });
      expect(await redeem()).toBe('ok');
      expect(await store.connectors.get(con.id)).toMatchObject({ via: 'oauth', kind: 'mcp' });
      expect((await store.agents.listByConnector(con.id)).map((x) => x.id)).toEqual([a.id]);
      expect(await store.oauth.findToken(tokens[0]!.tokenHash)).toMatchObject({
        kind: 'access',
        usedAt: null,
      });
      expect(await redeem(oauthConnector(u.id))).toBe('code_used');
      expect((await store.oauth.getRequest(r.id))?.connectorId).toBe(con.id);
    });

    it('oauth: an expired code, a request never approved and a deleted agent write nothing', async () => {
      const c = await client();
      const u = await user();
      const a = await agent(u.id, 'a');
      const r = await approved(c.id, u.id, a.id, 'code-2');
      const con = oauthConnector(u.id);
      const input = (requestId: string, at: number) => ({
        requestId,
        at,
        connector: con,
        remoteRef: 'oauth',
        tokens: [token('access', con.id, u.id, c.id)],
      });
      expect(await store.oauth.redeemCode(input(r.id, Date.now() + 120_000))).toBe('code_expired');
      const pending = await request(c.id);
      expect(await store.oauth.redeemCode(input(pending.id, Date.now()))).toBe('not_approved');
      await store.agents.delete(a.id, Date.now());
      expect(await store.oauth.redeemCode(input(r.id, Date.now()))).toBe('agent_gone');
      expect(await store.connectors.get(con.id)).toBeNull();
      expect((await store.oauth.getRequest(r.id))?.codeUsedAt).not.toBeNull();
    });

    it('oauth: a refresh token rotates once; revoking the connection ends the connector and its tokens', async () => {
      const c = await client();
      const u = await user();
      const a = await agent(u.id, 'a');
      const r = await approved(c.id, u.id, a.id, 'code-3');
      const con = oauthConnector(u.id);
      const first = token('refresh', con.id, u.id, c.id);
      const at = Date.now();
      await store.oauth.redeemCode({
        requestId: r.id,
        at,
        connector: con,
        remoteRef: 'oauth',
        tokens: [first],
      });
      const next = [token('access', con.id, u.id, c.id), token('refresh', con.id, u.id, c.id)];
      expect(await store.oauth.rotateRefresh(first.id, next, at)).toBe(true);
      expect(await store.oauth.rotateRefresh(first.id, [token('refresh', con.id, u.id, c.id)], at)).toBe(
        false,
      );
      expect((await store.oauth.findToken(first.tokenHash))?.usedAt).toBe(at);
      await store.oauth.revokeToken(next[0]!.id, at + 1);
      expect((await store.oauth.findToken(next[0]!.tokenHash))?.revokedAt).toBe(at + 1);
      await store.oauth.revokeConnection(con.id, at + 2);
      expect((await store.connectors.get(con.id))?.revokedAt).toBe(at + 2);
      expect((await store.oauth.findToken(next[1]!.tokenHash))?.revokedAt).toBe(at + 2);
      expect(await store.oauth.rotateRefresh(next[1]!.id, [], at + 3)).toBe(false);
      await store.users.delete(u.id);
      expect(await store.oauth.findToken(next[1]!.tokenHash)).toBeNull();
      expect(await store.oauth.getRequest(r.id)).toBeNull();
    });

    it('oauth: approving with a pairing code claims the code and the request together', async () => {
      const c = await client();
      const u = await user();
      const a = await agent(u.id, 'a');
      const codeRow = {
        id: newId('pc_'),
        userId: u.id,
        agentId: a.id,
        codeHash: hashSecret('654321'),
        createdAt: 1,
        expiresAt: Date.now() + 60_000,
        usedAt: null,
        connectorId: null,
      };
      await store.pairing.mint(codeRow);
      const r = await request(c.id);
      const input = { codeId: codeRow.id, userId: u.id, agentId: a.id, at: Date.now() };
      expect(await store.oauth.approveWithPairingCode(r.id, input)).toBe('ok');
      expect(await store.oauth.getRequest(r.id)).toMatchObject({ status: 'approved', agentId: a.id });
      expect(await store.pairing.findUnused(codeRow.codeHash)).toBeNull();
      expect(await store.oauth.approveWithPairingCode((await request(c.id)).id, input)).toBe('code_taken');
      // A request no longer pending rolls the code claim back.
      await store.pairing.mint({ ...codeRow, id: newId('pc_'), codeHash: hashSecret('111222') });
      const fresh = await store.pairing.findUnused(hashSecret('111222'));
      expect(await store.oauth.approveWithPairingCode(r.id, { ...input, codeId: fresh!.id })).toBe(
        'not_pending',
      );
      expect(await store.pairing.findUnused(hashSecret('111222'))).not.toBeNull();
    });

    it('oauth: prune drops lapsed requests and tokens', async () => {
      const c = await client();
      const old = await request(c.id, 10);
      const live = await request(c.id);
      await store.oauth.prune(1000);
      expect(await store.oauth.getRequest(old.id)).toBeNull();
      expect(await store.oauth.getRequest(live.id)).not.toBeNull();
    });

    it('threads: unread counts agent rows after the read mark; pages go newest first', async () => {
      const u = await user();
      const a = await agent(u.id, 'a');
      const key = { agentId: a.id, userId: u.id };
      const rows = [];
      for (const body of ['1', '2', '3']) {
        rows.push(
          await store.threads.append({
            id: newId('msg_'),
            ...key,
            sender: 'agent',
            kind: 'text',
            body,
            createdAt: 1,
          }),
        );
      }
      expect((await store.threads.unreadByAgent(u.id)).get(a.id)).toBe(3);
      await store.threads.markRead(key, rows[1]!.seq);
      await store.threads.markRead(key, rows[0]!.seq); // never moves back
      expect((await store.threads.unreadByAgent(u.id)).get(a.id)).toBe(1);
      expect((await store.threads.page({ ...key, limit: 2 })).map((m) => m.body)).toEqual(['3', '2']);
      expect(
        (await store.threads.page({ ...key, limit: 2, beforeSeq: rows[1]!.seq })).map((m) => m.body),
      ).toEqual(['1']);
    });
    it('threads: the page version moves on every write a page shows, and only then (ADR 0216)', async () => {
      const u = await user();
      const a = await agent(u.id, 'a');
      const b = await agent(u.id, 'b');
      const key = { agentId: a.id, userId: u.id };
      const version = async () => (await store.threads.getState(key)).pageVersion;
      const seen: (string | null)[] = [];
      /** Runs `write`; expects the version to change to one never seen before (or to stay, `moves` false). */
      const check = async (what: string, write: () => Promise<unknown>, moves = true) => {
        const before = await version();
        await write();
        const now = await version();
        if (moves) {
          expect(now, what).not.toBeNull();
          expect(seen.includes(now), `${what}: a version seen before`).toBe(false);
        } else expect(now, what).toBe(before);
        seen.push(now);
      };
      const message = (sender: 'agent' | 'person', body: string, k = key) => ({
        id: newId('msg_'),
        ...k,
        sender,
        kind: 'text' as const,
        body,
        createdAt: 1,
      });
      await store.threads.markRead(key, 0); // a read mark before any message
      await check('an agent row', () => store.threads.append(message('agent', 'a1')));
      await check('a read mark', () => store.threads.markRead(key, 1), false);
      await check('open', () => store.threads.setOpen(key, true, 2), false);
      await check('working', () => store.threads.setWorking(key, 99), false);
      await check(
        'another thread written',
        () => store.threads.append(message('agent', 'b1', { agentId: b.id, userId: u.id })),
        false,
      );
      const p1 = await store.threads.append(message('person', 'p1'));
      seen.push(await version());
      await check('a screen', () =>
        store.threads.appendScreen(
          { id: newId('msg_'), ...key, sender: 'agent', kind: 'screen', body: 'x', createdAt: 2 },
          { id: newId('scr_'), lines: 'note "x"', ops: [], taps: [] },
        ),
      );
      await check('delivered', () => store.threads.markDelivered(key, p1.seq + 10, 3));
      await check('rows delivered', () => store.threads.markRowsDelivered(key, [p1.id], 4));
      await check('claimed', () => store.threads.claimAnswers({ ...key, afterSeq: 0, limit: 5, at: 5 }));
      const p2 = await store.threads.append(message('person', 'p2'));
      seen.push(await version());
      await check('rows handled', () => store.threads.markRowsHandled(key, [p2.id], 6));
      const photo = {
        id: newId('pho_'),
        ...key,
        messageId: null,
        file: 'f.png',
        contentType: 'image/png',
        bytes: 3,
        createdAt: 7,
      };
      await check('an unsent photo', () => store.photos.create(photo), false);
      await check('a photo attached', () => store.photos.attach([photo.id], p2.id));
      await check('rows trimmed', () => store.housekeeping.trimThreads(1));
      await check('rows expired', () => store.housekeeping.deleteMessagesBefore(Number.MAX_SAFE_INTEGER));
      expect(await store.threads.page({ ...key, limit: 10 })).toEqual([]);
    });

    it('photos: keep the size read at upload; a photo without one reads back null (issue 38)', async () => {
      const u = await user();
      const a = await agent(u.id, 'a');
      const base = { userId: u.id, agentId: a.id, messageId: null, contentType: 'image/png', bytes: 3 };
      const sized = await store.photos.create({
        ...base,
        id: newId('pho_'),
        file: 'sized.png',
        width: 1200,
        height: 900,
        createdAt: 1,
      });
      const unsized = await store.photos.create({
        ...base,
        id: newId('pho_'),
        file: 'unsized.png',
        createdAt: 2,
      });
      expect(await store.photos.get(sized.id)).toMatchObject({ width: 1200, height: 900 });
      expect(await store.photos.get(unsized.id)).toMatchObject({ width: null, height: null });
      expect((await store.photos.listByUser(u.id)).map((p) => [p.width, p.height])).toEqual([
        [1200, 900],
        [null, null],
      ]);
    });

    it('threads: a message binds its photos in its own write; a photo bound elsewhere stays (ADR 0217)', async () => {
      const u = await user();
      const a = await agent(u.id, 'a');
      const key = { agentId: a.id, userId: u.id };
      const photo = (n: number) =>
        store.photos.create({
          id: newId('pho_'),
          ...key,
          messageId: null,
          file: `f${n}.png`,
          contentType: 'image/png',
          bytes: 3,
          createdAt: n,
        });
      const [p1, p2, p3] = [await photo(1), await photo(2), await photo(3)];
      const first = await store.threads.append({
        id: newId('msg_'),
        ...key,
        sender: 'person',
        kind: 'text',
        body: 'two photos',
        meta: { photos: [p1.id, p2.id] },
        createdAt: 4,
        photoIds: [p1.id, p2.id],
      });
      expect((await store.photos.get(p1.id))?.messageId).toBe(first.id);
      expect((await store.photos.get(p2.id))?.messageId).toBe(first.id);
      const second = await store.threads.append({
        id: newId('msg_'),
        ...key,
        sender: 'person',
        kind: 'tap',
        body: 'a tap',
        createdAt: 5,
        photoIds: [p2.id, p3.id],
      });
      expect((await store.photos.get(p2.id))?.messageId).toBe(first.id);
      expect((await store.photos.get(p3.id))?.messageId).toBe(second.id);
      expect((await store.photos.listByMessage([first.id])).map((p) => p.id).sort()).toEqual(
        [p1.id, p2.id].sort(),
      );
    });

    it('shares: grants only for a client-safe agent, one live per (agent, user), purge after revoke', async () => {
      const o = await user();
      const u = await user();
      const a = await agent(o.id, 'shared');
      const grant = (id: string, at: number) => ({
        id,
        agentId: a.id,
        ownerId: o.id,
        userId: u.id,
        role: 'user' as const,
        theme: {},
        firstMessage: 'Hi',
        template: null,
        inviteId: null,
        pushMuted: false,
        sort: 0,
        sharedBy: 'O',
        grantedAt: at,
      });
      await expect(store.shares.createGrant(grant('g1', 1))).rejects.toMatchObject({
        code: 'NOT_CLIENT_SAFE',
      });
      await store.agents.setSandbox(a.id, { sandbox: {}, clientSafe: true, clientSafeAt: 1 });
      // Only the agent's owner can give it.
      await expect(
        store.shares.createGrant({ ...grant('g0', 1), ownerId: u.id, userId: o.id }),
      ).rejects.toMatchObject({
        code: 'NOT_CLIENT_SAFE',
      });
      expect((await store.shares.createGrant(grant('g1', 1))).revokedAt).toBeNull();
      await expect(store.shares.createGrant(grant('g2', 2))).rejects.toMatchObject({ code: 'CONFLICT' });
      const key = { agentId: a.id, userId: u.id };
      await store.threads.append({
        id: newId('msg_'),
        ...key,
        sender: 'person',
        kind: 'text',
        body: 'x',
        createdAt: 2,
      });
      expect((await store.shares.revoke(o.id, a.id, u.id, 10))!.revokedAt).toBe(10);
      expect(await store.shares.revoke(o.id, a.id, u.id, 11)).toBeNull();
      expect(await store.shares.liveGrant(a.id, u.id)).toBeNull();
      expect((await store.shares.latestGrant(a.id, u.id))!.id).toBe('g1');
      expect(await store.shares.purgeRevoked(10)).toBe(0);
      expect(await store.shares.purgeRevoked(11)).toBe(1);
      expect(await store.threads.page({ ...key, limit: 10 })).toEqual([]);
      expect(await store.shares.listGiven(o.id)).toEqual([]);
      // Deleting the owner leaves no share rows behind.
      await store.shares.createGrant(grant('g3', 20));
      await store.users.delete(o.id);
      expect(await store.shares.listHeld(u.id)).toEqual([]);
    });
  });
}
