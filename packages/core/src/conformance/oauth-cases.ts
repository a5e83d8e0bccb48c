// Conformance cases: OAuth clients, authorization requests, codes and tokens.
import { hashSecret, newId } from '@screen-service/registry/kernel';
import type { Store } from '@screen-service/registry/model';
import { expect } from 'vitest';
import { type ConformanceCase, conformanceCase as c } from './cases.js';
import { fixtures } from './fixtures.js';

/** A request approved for `agentId` and finished with code `secret` valid for a minute. */
async function approved(store: Store, clientId: string, userId: string, agentId: string, secret: string) {
  const r = await fixtures(store).request(clientId);
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
}

export const oauthCases: ConformanceCase[] = [
  c(
    [
      'oauth.createClient',
      'oauth.getClient',
      'oauth.createRequest',
      'oauth.getRequest',
      'oauth.decide',
      'oauth.finish',
      'oauth.findRequestByCodeHash',
    ],
    'a request is decided once, only while pending and unexpired, and finished once',
    async (store) => {
      const f = fixtures(store);
      const cl = await f.client();
      expect((await store.oauth.getClient(cl.id))?.metadata).toEqual({ client_uri: 'https://example.com' });
      const u = await f.user();
      const a = await f.agent(u.id, 'a');
      const r = await f.request(cl.id);
      expect(await store.oauth.getRequest(r.id)).toEqual(r);
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
      const old = await f.request(cl.id, 5);
      expect(
        await store.oauth.decide(old.id, { status: 'denied', userId: null, agentId: null, at }),
      ).toBeNull();
    },
  ),
  c(
    ['oauth.redeemCode', 'oauth.findToken', 'agents.listByConnector'],
    'redeeming a code creates the connection, binds the agent and stores tokens, once',
    async (store) => {
      const f = fixtures(store);
      const cl = await f.client();
      const u = await f.user();
      const a = await f.agent(u.id, 'a');
      const r = await approved(store, cl.id, u.id, a.id, 'code-1');
      const con = f.oauthConnector(u.id);
      const tokens = [f.token('access', con.id, u.id, cl.id), f.token('refresh', con.id, u.id, cl.id)];
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
      expect(await redeem(f.oauthConnector(u.id))).toBe('code_used');
      expect((await store.oauth.getRequest(r.id))?.connectorId).toBe(con.id);
    },
  ),
  c(
    ['oauth.redeemCode', 'agents.delete'],
    'an expired code, a request never approved and a deleted agent write nothing',
    async (store) => {
      const f = fixtures(store);
      const cl = await f.client();
      const u = await f.user();
      const a = await f.agent(u.id, 'a');
      const r = await approved(store, cl.id, u.id, a.id, 'code-2');
      const con = f.oauthConnector(u.id);
      const input = (requestId: string, at: number) => ({
        requestId,
        at,
        connector: con,
        remoteRef: 'oauth',
        tokens: [f.token('access', con.id, u.id, cl.id)],
      });
      expect(await store.oauth.redeemCode(input(r.id, Date.now() + 120_000))).toBe('code_expired');
      const pending = await f.request(cl.id);
      expect(await store.oauth.redeemCode(input(pending.id, Date.now()))).toBe('not_approved');
      await store.agents.delete(a.id, Date.now());
      expect(await store.oauth.redeemCode(input(r.id, Date.now()))).toBe('agent_gone');
      expect(await store.connectors.get(con.id)).toBeNull();
      expect((await store.oauth.getRequest(r.id))?.codeUsedAt).not.toBeNull();
    },
  ),
  c(
    ['oauth.rotateRefresh', 'oauth.revokeToken', 'oauth.revokeConnection'],
    'a refresh token rotates once; revoking the connection ends the connector and its tokens',
    async (store) => {
      const f = fixtures(store);
      const cl = await f.client();
      const u = await f.user();
      const a = await f.agent(u.id, 'a');
      const r = await approved(store, cl.id, u.id, a.id, 'code-3');
      const con = f.oauthConnector(u.id);
      const first = f.token('refresh', con.id, u.id, cl.id);
      const at = Date.now();
      await store.oauth.redeemCode({
        requestId: r.id,
        at,
        connector: con,
        remoteRef: 'oauth',
        tokens: [first],
      });
      const next = [f.token('access', con.id, u.id, cl.id), f.token('refresh', con.id, u.id, cl.id)];
      expect(await store.oauth.rotateRefresh(first.id, next, at)).toBe(true);
      expect(await store.oauth.rotateRefresh(first.id, [f.token('refresh', con.id, u.id, cl.id)], at)).toBe(
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
    },
  ),
  c(
    ['oauth.approveWithPairingCode', 'pairing.mint', 'pairing.findUnused'],
    'approving with a pairing code claims the code and the request together',
    async (store) => {
      const f = fixtures(store);
      const cl = await f.client();
      const u = await f.user();
      const a = await f.agent(u.id, 'a');
      const codeRow = f.pairingCode(u.id, a.id, '654321');
      await store.pairing.mint(codeRow);
      const r = await f.request(cl.id);
      const input = { codeId: codeRow.id, userId: u.id, agentId: a.id, at: Date.now() };
      expect(await store.oauth.approveWithPairingCode(r.id, input)).toBe('ok');
      expect(await store.oauth.getRequest(r.id)).toMatchObject({ status: 'approved', agentId: a.id });
      expect(await store.pairing.findUnused(codeRow.codeHash)).toBeNull();
      expect(await store.oauth.approveWithPairingCode((await f.request(cl.id)).id, input)).toBe('code_taken');
      // A request no longer pending rolls the code claim back.
      await store.pairing.mint({ ...codeRow, id: newId('pc_'), codeHash: hashSecret('111222') });
      const fresh = await store.pairing.findUnused(hashSecret('111222'));
      expect(await store.oauth.approveWithPairingCode(r.id, { ...input, codeId: fresh!.id })).toBe(
        'not_pending',
      );
      expect(await store.pairing.findUnused(hashSecret('111222'))).not.toBeNull();
    },
  ),
  c(['oauth.prune'], 'prune drops lapsed requests and tokens', async (store) => {
    const f = fixtures(store);
    const cl = await f.client();
    const old = await f.request(cl.id, 10);
    const live = await f.request(cl.id);
    await store.oauth.prune(1000);
    expect(await store.oauth.getRequest(old.id)).toBeNull();
    expect(await store.oauth.getRequest(live.id)).not.toBeNull();
  }),
];
