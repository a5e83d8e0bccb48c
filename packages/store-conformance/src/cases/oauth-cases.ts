// Conformance cases: OAuth clients, authorization requests, codes and tokens.
import { hashSecret } from '@screen-service/registry/kernel';
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
    ['oauth.updateClient', 'oauth.getClient'],
    "a client's name, redirect URIs and metadata are rewritten; nothing else, and no row is made",
    async (store) => {
      const cl = await fixtures(store).client();
      const fields = {
        name: 'Renamed',
        redirectUris: ['https://app.example/cb'],
        metadata: { logo_uri: 'x' },
      };
      expect(await store.oauth.updateClient(cl.id, fields)).toBe(true);
      expect(await store.oauth.getClient(cl.id)).toEqual({ ...cl, ...fields });
      expect(await store.oauth.updateClient('cl_none', fields)).toBe(false);
      expect(await store.oauth.getClient('cl_none')).toBeNull();
    },
  ),
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
    ['oauth.useCode', 'oauth.addTokens', 'oauth.findToken', 'oauth.getRequest'],
    'a code is used once (with or without its connection); tokens are stored as given',
    async (store) => {
      const f = fixtures(store);
      const cl = await f.client();
      const u = await f.user();
      const a = await f.agent(u.id, 'a');
      const r = await approved(store, cl.id, u.id, a.id, 'code-1');
      const con = f.oauthConnector(u.id);
      await store.connectors.create(con);
      const at = Date.now();
      expect(await store.oauth.useCode(r.id, at, con.id)).toBe(true);
      expect(await store.oauth.useCode(r.id, at + 1, null)).toBe(false);
      expect(await store.oauth.getRequest(r.id, { forUpdate: true })).toMatchObject({
        codeUsedAt: at,
        connectorId: con.id,
      });
      const tokens = [f.token('access', con.id, u.id, cl.id), f.token('refresh', con.id, u.id, cl.id)];
      await store.oauth.addTokens(tokens);
      await store.oauth.addTokens([]);
      expect(await store.oauth.findToken(tokens[0]!.tokenHash)).toEqual(tokens[0]);
      expect(await store.oauth.findToken(tokens[1]!.tokenHash)).toEqual(tokens[1]);
      expect(await store.oauth.findToken(hashSecret('nope'))).toBeNull();
      // A code used up for nothing keeps no connection.
      const other = await approved(store, cl.id, u.id, a.id, 'code-2');
      expect(await store.oauth.useCode(other.id, at, null)).toBe(true);
      expect(await store.oauth.getRequest(other.id)).toMatchObject({ codeUsedAt: at, connectorId: null });
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
      await store.connectors.create(con);
      await store.oauth.useCode(r.id, at, con.id);
      await store.oauth.addTokens([first]);
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
