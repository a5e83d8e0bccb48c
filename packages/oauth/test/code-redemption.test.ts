// Who may redeem a code, and when (ADR 0080, 0241): the rules of code-redemption.ts over the real store,
// SQLite or (SVC_TEST_STORE=postgres) PostgreSQL, racing redemptions included.
import { hashSecret, newId } from '@screen-service/registry/kernel';
import type { ConnectorRecord, OAuthTokenRecord, Store } from '@screen-service/registry/model';
import { testStoreOption } from '@screen-service/store-postgres/testing';
import { createTestCore, seedAgent, seedConnector, seedUser, type TestCore } from '@screen-service/test-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { approveWithPairingCode, redeemAuthorizationCode } from '../src/code-redemption.js';

let core: TestCore;
let store: Store;
beforeEach(async () => {
  core = createTestCore(await testStoreOption());
  store = core.store;
});
afterEach(() => core.close());

const client = () =>
  store.oauth.createClient({
    id: newId('cl_'),
    secretHash: null,
    authMethod: 'none',
    name: 'Test client',
    redirectUris: ['http://127.0.0.1/cb'],
    metadata: {},
    createdAt: 1,
  });

const request = (clientId: string) =>
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
    expiresAt: Date.now() + 600_000,
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

/** A request approved for `agentId` and finished with a code valid for a minute. */
async function approved(clientId: string, userId: string, agentId: string) {
  const r = await request(clientId);
  const at = Date.now();
  await store.oauth.decide(r.id, { status: 'approved', userId, agentId, at });
  await store.oauth.finish(r.id, { at, codeHash: hashSecret(newId()), codeExpiresAt: at + 60_000 });
  return r;
}

const oauthConnector = (userId: string): ConnectorRecord => ({
  id: newId('con_'),
  userId,
  name: 'Test client',
  kind: 'mcp',
  tokenHash: hashSecret(newId()),
  createdAt: 1,
  lastSeenAt: null,
  revokedAt: null,
  suspendedAt: null,
  via: 'oauth',
});

const token = (kind: 'access' | 'refresh', c: ConnectorRecord, clientId: string): OAuthTokenRecord => ({
  id: newId('tok_'),
  kind,
  tokenHash: hashSecret(newId()),
  connectorId: c.id,
  userId: c.userId,
  clientId,
  createdAt: 1,
  expiresAt: Date.now() + 3_600_000,
  usedAt: null,
  revokedAt: null,
});

const redeem = (requestId: string, connector: ConnectorRecord, tokens: OAuthTokenRecord[], at = Date.now()) =>
  redeemAuthorizationCode(store, { requestId, at, connector, remoteRef: 'oauth', tokens });

describe('redeeming an authorization code', () => {
  it('creates the connection, binds the agent and stores the tokens, once', async () => {
    const cl = await client();
    const u = await seedUser(store);
    const a = await seedAgent(store, u.id);
    const r = await approved(cl.id, u.id, a.id);
    const con = oauthConnector(u.id);
    const tokens = [token('access', con, cl.id), token('refresh', con, cl.id)];
    expect(await redeem(r.id, con, tokens)).toBe('ok');
    expect(await store.connectors.get(con.id)).toMatchObject({ via: 'oauth', kind: 'mcp' });
    // A pending agent moves to the sign-in (ADR 0091).
    expect(await store.agents.get(a.id)).toMatchObject({
      connectorId: con.id,
      remoteRef: 'oauth',
      kind: 'mcp',
    });
    expect(await store.oauth.findToken(tokens[0]!.tokenHash)).toMatchObject({ kind: 'access', usedAt: null });
    const again = oauthConnector(u.id);
    expect(await redeem(r.id, again, [token('access', again, cl.id)])).toBe('code_used');
    expect(await store.connectors.get(again.id)).toBeNull();
    expect((await store.oauth.getRequest(r.id))?.connectorId).toBe(con.id);
  });

  it('two redemptions of one code at once: one connection, the other told the code was used', async () => {
    const cl = await client();
    const u = await seedUser(store);
    const a = await seedAgent(store, u.id);
    const r = await approved(cl.id, u.id, a.id);
    const cons = Array.from({ length: 4 }, () => oauthConnector(u.id));
    const outcomes = await Promise.all(cons.map((c) => redeem(r.id, c, [token('access', c, cl.id)])));
    expect(outcomes.sort()).toEqual(['code_used', 'code_used', 'code_used', 'ok']);
    const made = [];
    for (const c of cons) if (await store.connectors.get(c.id)) made.push(c.id);
    expect(made).toEqual([(await store.oauth.getRequest(r.id))!.connectorId]);
  });

  it('an expired code, a request never approved and a deleted agent write nothing (the last uses the code up)', async () => {
    const cl = await client();
    const u = await seedUser(store);
    const a = await seedAgent(store, u.id);
    const r = await approved(cl.id, u.id, a.id);
    const con = oauthConnector(u.id);
    const tokens = [token('access', con, cl.id)];
    expect(await redeem(r.id, con, tokens, Date.now() + 120_000)).toBe('code_expired');
    expect(await redeem((await request(cl.id)).id, con, tokens)).toBe('not_approved');
    expect(await redeem('ar_missing', con, tokens)).toBe('not_approved');
    expect((await store.oauth.getRequest(r.id))?.codeUsedAt).toBeNull();
    await core.agents.delete(u.id, a.id);
    expect(await redeem(r.id, con, tokens)).toBe('agent_gone');
    expect(await store.connectors.get(con.id)).toBeNull();
    expect(await store.oauth.findToken(tokens[0]!.tokenHash)).toBeNull();
    expect((await store.oauth.getRequest(r.id))?.codeUsedAt).not.toBeNull();
    expect(await redeem(r.id, con, tokens)).toBe('code_used');
  });

  it('an agent a live host serves keeps it and the sign-in serves it too; one whose host was removed moves', async () => {
    const cl = await client();
    const u = await seedUser(store);
    const { connector: host } = await seedConnector(store, u.id, { kind: 'hostfw' });
    const kept = await seedAgent(store, u.id, { connectorId: host.id, kind: 'hostfw' });
    const r = await approved(cl.id, u.id, kept.id);
    const con = oauthConnector(u.id);
    expect(await redeem(r.id, con, [token('access', con, cl.id)])).toBe('ok');
    expect((await store.agents.get(kept.id))?.connectorId).toBe(host.id);
    expect((await store.agents.listByConnector(con.id)).map((x) => x.id)).toEqual([kept.id]);

    const { connector: gone } = await seedConnector(store, u.id, { kind: 'hostfw' });
    const moved = await seedAgent(store, u.id, { connectorId: gone.id, kind: 'hostfw' });
    await store.connectors.revoke(gone.id, Date.now());
    const r2 = await approved(cl.id, u.id, moved.id);
    const con2 = oauthConnector(u.id);
    expect(await redeem(r2.id, con2, [token('access', con2, cl.id)])).toBe('ok');
    expect(await store.agents.get(moved.id)).toMatchObject({ connectorId: con2.id, kind: 'mcp' });
  });
});

describe('approving a sign-in with a pairing code', () => {
  it('claims the code and decides the request together; a request no longer pending rolls the claim back', async () => {
    const cl = await client();
    const u = await seedUser(store);
    const a = await seedAgent(store, u.id);
    const code = (secret: string) => ({
      id: newId('pc_'),
      userId: u.id,
      agentId: a.id,
      codeHash: hashSecret(secret),
      createdAt: 1,
      expiresAt: Date.now() + 60_000,
      usedAt: null,
      connectorId: null,
    });
    const first = code('654321');
    await store.pairing.insert(first);
    const r = await request(cl.id);
    const input = { codeId: first.id, userId: u.id, agentId: a.id, at: Date.now() };
    expect(await approveWithPairingCode(store, r.id, input)).toBe('ok');
    expect(await store.oauth.getRequest(r.id)).toMatchObject({ status: 'approved', agentId: a.id });
    expect(await store.pairing.findUnused(first.codeHash)).toBeNull();
    expect(await approveWithPairingCode(store, (await request(cl.id)).id, input)).toBe('code_taken');
    const fresh = code('111222');
    await store.pairing.insert(fresh);
    expect(await approveWithPairingCode(store, r.id, { ...input, codeId: fresh.id })).toBe('not_pending');
    expect(await store.pairing.findUnused(fresh.codeHash)).not.toBeNull();
  });
});
