import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRateLimiter } from '@screen-service/registry/kernel';
import { createTestCore, seedConnection, seedConnector, type TestCore } from '@screen-service/test-kit';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManagementRouter, MANAGEMENT_ACTIONS } from './management-router.js';

let core: TestCore;
let server: Server;
let url: string;
let app: string; // the app's access token
let mt: string; // a management token of the same person
let userId: string;

beforeAll(async () => {
  // The shared test kit: a real SQLite file with the core schema and the core's rules over it.
  core = createTestCore({ clockMode: 'running' });
  const s = await core.accounts.signUp({ email: 'ada@example.com', password: 'a long passphrase' });
  app = s.access_token;
  userId = s.user.id;
  mt = (await core.managementTokens.create(userId, 'robot')).token;
  const ex = express();
  // Every doc2 row below comes from one account: a bucket this suite never empties (management-rate.test.ts
  // covers the default bucket).
  const rateLimit = createRateLimiter({ burst: 10_000, perMinute: 10_000 });
  const receipts = (u: string, a: unknown, o: { answers: boolean }) => core.receipts.exportOwned(u, a, o);
  ex.use(
    '/functions/v1/svc-agents',
    createManagementRouter({ management: core.management, rateLimit, receipts }),
  );
  server = ex.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/functions/v1/svc-agents`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  core.close();
});

// biome-ignore lint/suspicious/noExplicitAny: the answers are JSON read field by field in assertions
type Json = Record<string, any>;
async function post(body: unknown, token: string | null, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Json, headers: res.headers };
}

describe('POST svc-agents (real HTTP, real SQLite)', () => {
  it.each([
    ['app access token', () => app],
    ['management token', () => mt],
  ])(
    'with the %s: create (code), create (bound), update, reorder, pair_code, list, delete',
    async (_n, tok) => {
      const token = tok();
      const created = await post({ action: 'create', name: 'Research', pair: true }, token);
      expect(created.status).toBe(200);
      expect(created.body.agent).toMatchObject({ name: 'Research', status: 'pending' });
      expect(created.body.pairing.code).toMatch(/^\d{6}$/);
      expect(Date.parse(created.body.pairing.expires_at) - Date.now()).toBeGreaterThan(9 * 60_000);

      const { connector } = await seedConnector(core.store, userId, { kind: 'hostfw', name: 'studio' });
      const ref = `coder-${token.slice(-4).replace(/[^a-z0-9]/gi, 'x')}`;
      const bound = await post({ action: 'create', remote_ref: ref, connector_id: connector.id }, token);
      expect(bound.status).toBe(200);
      expect(bound.body.agent).toMatchObject({ name: ref, remote_ref: ref, kind: 'hostfw' });
      expect(bound.body.pairing).toBeUndefined();

      const upd = await post(
        { action: 'update', id: bound.body.agent.id, name: 'Coder', color: 'butter', is_default: true },
        token,
      );
      expect(upd.status).toBe(200);
      expect(upd.body.agent).toMatchObject({ name: 'Coder', color: 'butter', is_default: true });

      const list = await post({ action: 'list' }, token);
      expect(list.status).toBe(200);
      const ids = (list.body.agents as Json[]).map((a) => a.id as string);
      expect(ids).toContain(bound.body.agent.id);
      expect((list.body.connectors as Json[]).some((c) => c.id === connector.id && c.name === 'studio')).toBe(
        true,
      );
      expect(JSON.stringify(list.body)).not.toMatch(/token_hash|tokenHash|code_hash/);

      const re = await post({ action: 'reorder', ids: [...ids].reverse() }, token);
      expect(re.status).toBe(200);
      expect((re.body.agents as Json[]).map((a) => a.id)).toEqual([...ids].reverse());

      const code = await post({ action: 'pair_code', agent_id: created.body.agent.id }, token);
      expect(code.status).toBe(200);
      expect(code.body).toMatchObject({
        agent_id: created.body.agent.id,
        pairing: { code: expect.stringMatching(/^\d{6}$/) },
      });
      expect(code.body.pairing.code).not.toBe(created.body.pairing.code);

      const del = await post({ action: 'delete', id: created.body.agent.id }, token);
      expect(del.body).toEqual({ deleted: true, id: created.body.agent.id });
      const after = await post({ action: 'list' }, token);
      expect((after.body.agents as Json[]).some((a) => a.id === created.body.agent.id)).toBe(false);
    },
  );

  it('list: the app also gets first_name; a management token does not', async () => {
    expect('first_name' in (await post({ action: 'list' }, app)).body).toBe(true);
    expect('first_name' in (await post({ action: 'list' }, mt)).body).toBe(false);
  });

  it('app-only actions: token_create (shown once), token_list (last_used_at), token_revoke, connector_revoke', async () => {
    const made = await post({ action: 'token_create', name: 'laptop' }, app);
    expect(made.status).toBe(200);
    const token = made.body.token as string;
    expect(token).toMatch(/^svc_mt_/);
    const list1 = await post({ action: 'token_list' }, app);
    const row1 = (list1.body.tokens as Json[]).find((t) => t.id === made.body.management_token.id)!;
    expect(row1).toMatchObject({
      name: 'laptop',
      scope: 'agents:manage',
      last_used_at: null,
      revoked_at: null,
    });
    expect(JSON.stringify(list1.body)).not.toContain(token);
    expect((await post({ action: 'list' }, token)).status).toBe(200);
    const row2 = ((await post({ action: 'token_list' }, app)).body.tokens as Json[]).find(
      (t) => t.id === row1.id,
    )!;
    expect(row2.last_used_at).not.toBeNull();
    const rv = await post({ action: 'token_revoke', id: row1.id }, app);
    expect(rv.body).toEqual({ revoked: true, id: row1.id });
    const dead = await post({ action: 'list' }, token);
    expect(dead.status).toBe(401);
    expect(dead.body.error).toBe('unauthorized');
    expect(dead.headers.get('www-authenticate')).toBe('Bearer');

    const { connector } = await seedConnector(core.store, userId, { kind: 'hostfw' });
    const cr = await post({ action: 'connector_revoke', connector_id: connector.id }, app);
    expect(cr.body).toEqual({ revoked: true, connector_id: connector.id });
    const conns = (await post({ action: 'list' }, app)).body.connectors as Json[];
    expect(conns.find((c) => c.id === connector.id)!.revoked_at).not.toBeNull();
  });

  it.each(['token_create', 'token_list', 'token_revoke', 'connector_revoke'])(
    'a management token is refused %s with 403 forbidden',
    async (action) => {
      const r = await post({ action, name: 'x', id: 'mt_x', connector_id: 'con_x' }, mt);
      expect(r.status).toBe(403);
      expect(r.body.error).toBe('forbidden');
      expect(r.body.message).toMatch(/app only/);
    },
  );

  it('the apikey header is accepted and ignored', async () => {
    const r = await post({ action: 'list' }, mt, { apikey: 'any-publishable-key' });
    expect(r.status).toBe(200);
    expect((await post({ action: 'list' }, null, { apikey: 'k' })).status).toBe(401);
  });

  it('receipts: the owner exports a thread; a management token gets no answers, the app gets them (ADR 0261)', async () => {
    const { token, agents } = await seedConnection(core.store, userId, ['receipts']);
    const agent = agents[0]!;
    const principal = await core.connectionAuth.verify(token);
    const screen = await core.threadOps.show(principal, { lines: 'choose@go "Go?" Yes|No', agent: agent.id });
    await core.threads.tap(userId, agent.id, {
      screen_id: screen.screen_id,
      event: { id: 'go', value: 'Yes' },
    });
    const byToken = await post({ action: 'receipts', agent_id: agent.id }, mt);
    expect(byToken.status).toBe(200);
    const line = JSON.parse(String(byToken.body.receipts).trim()) as Json;
    expect(line.seq).toBe(1);
    // Format 2 (ADR 0294): the payload, its path and its batch's signed root (a compact JWS).
    expect(line).toMatchObject({ v: 2, receipt: { seq: 1, v: 2 }, path: [] });
    expect(line.batch).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect('answer' in line).toBe(false);
    const byApp = await post({ action: 'receipts', agent_id: agent.id }, app);
    expect((JSON.parse(String(byApp.body.receipts).trim()) as Json).answer.event.value).toBe('Yes');
    const other = await post({ action: 'receipts', agent_id: 'agt_not_mine' }, mt);
    expect(other.status).toBe(404);
  });

  it('serves exactly doc2 actions, and receipts (issue 40)', () => {
    expect([...MANAGEMENT_ACTIONS]).toEqual([
      'list',
      'create',
      'update',
      'reorder',
      'pair_code',
      'delete',
      'token_create',
      'token_list',
      'token_revoke',
      'connector_revoke',
      'receipts',
    ]);
  });
});

describe('doc2 error rows over HTTP', () => {
  const cases: [string, () => Promise<{ status: number; body: Json }>, number, string][] = [
    ['no credential', () => post({ action: 'list' }, null), 401, 'unauthorized'],
    ['a bad management token', () => post({ action: 'list' }, 'svc_mt_wrong'), 401, 'unauthorized'],
    ['a connector token', () => post({ action: 'list' }, 'svc_ct_abc'), 401, 'unauthorized'],
    ['a bad access token', () => post({ action: 'list' }, 'eyJ.bad.jwt'), 401, 'unauthorized'],
    ['unknown action', () => post({ action: 'explode' }, mt), 400, 'invalid_action'],
    ['no action', () => post({}, mt), 400, 'invalid_action'],
    ['prototype key as action', () => post({ action: 'constructor' }, mt), 400, 'invalid_action'],
    ['a JSON array body', () => post([], mt), 400, 'invalid_body'],
    ['bad JSON', () => post('{nope', mt), 400, 'invalid_json'],
    ['create with no name', () => post({ action: 'create', pair: true }, mt), 400, 'invalid_name'],
    [
      'create with a 41-character name',
      () => post({ action: 'create', name: 'x'.repeat(41) }, mt),
      400,
      'invalid_name',
    ],
    [
      'create with a bad color',
      () => post({ action: 'create', name: 'A', color: 'red' }, mt),
      400,
      'invalid_color',
    ],
    [
      'create with pair not boolean',
      () => post({ action: 'create', name: 'A', pair: 'yes' }, mt),
      400,
      'invalid_pair',
    ],
    [
      'create bound with a bad remote_ref',
      () => post({ action: 'create', connector_id: 'con_x', remote_ref: 'a b' }, mt),
      400,
      'invalid_remote_ref',
    ],
    [
      'create bound without connector_id',
      () => post({ action: 'create', remote_ref: 'abc' }, mt),
      400,
      'invalid_connector_id',
    ],
    [
      'create bound to an unknown connector',
      () => post({ action: 'create', connector_id: 'con_nope', remote_ref: 'abc' }, mt),
      404,
      'connector_not_found',
    ],
    [
      'update an unknown agent',
      () => post({ action: 'update', id: 'agt_nope', name: 'A' }, mt),
      404,
      'not_found',
    ],
    ['update without id', () => post({ action: 'update', name: 'A' }, mt), 400, 'invalid_id'],
    [
      'update theme with a management token',
      () => post({ action: 'update', id: 'agt_nope', theme: {} }, mt),
      403,
      'forbidden',
    ],
    ['reorder with a non-list', () => post({ action: 'reorder', ids: 'a' }, mt), 400, 'invalid_ids'],
    [
      'pair_code for an unknown agent',
      () => post({ action: 'pair_code', agent_id: 'agt_nope' }, mt),
      404,
      'not_found',
    ],
    ['delete an unknown agent', () => post({ action: 'delete', id: 'agt_nope' }, mt), 404, 'not_found'],
    ['token_create with no name (app)', () => post({ action: 'token_create' }, app), 400, 'invalid_name'],
    [
      'token_revoke of an unknown token (app)',
      () => post({ action: 'token_revoke', id: 'mt_nope' }, app),
      404,
      'not_found',
    ],
    [
      'connector_revoke of an unknown connector (app)',
      () => post({ action: 'connector_revoke', connector_id: 'con_nope' }, app),
      404,
      'connector_not_found',
    ],
  ];
  it.each(cases)('%s', async (_name, call, status, error) => {
    const r = await call();
    expect({ status: r.status, error: r.body.error }).toEqual({ status, error });
    expect(typeof r.body.message).toBe('string');
  });

  it('already_added (409) and connector_revoked (409) on create bound', async () => {
    const { connector } = await seedConnector(core.store, userId, { kind: 'hostfw' });
    expect((await post({ action: 'create', connector_id: connector.id, remote_ref: 'dup' }, mt)).status).toBe(
      200,
    );
    const dup = await post({ action: 'create', connector_id: connector.id, remote_ref: 'dup' }, mt);
    expect({ status: dup.status, error: dup.body.error }).toEqual({ status: 409, error: 'already_added' });
    await core.store.connectors.revoke(connector.id, core.clock());
    const gone = await post({ action: 'create', connector_id: connector.id, remote_ref: 'new' }, mt);
    expect({ status: gone.status, error: gone.body.error }).toEqual({
      status: 409,
      error: 'connector_revoked',
    });
  });

  it('GET is 405 with allow: POST; a body over 64 KB is 413', async () => {
    const g = await fetch(url, { headers: { authorization: `Bearer ${mt}` } });
    expect(g.status).toBe(405);
    expect(g.headers.get('allow')).toBe('POST');
    const big = await post({ action: 'create', name: 'x'.repeat(70_000) }, mt);
    expect({ status: big.status, error: big.body.error }).toEqual({ status: 413, error: 'body_too_large' });
  });
});

describe('a shared agent through the management API (doc2 shared_agent)', () => {
  it('the holder may change only push_muted and sort; rename, default, pair and delete are shared_agent 403', async () => {
    const owner = await core.accounts.signUp({ email: 'owner@example.com', password: 'a long passphrase' });
    const { connector, token } = await seedConnector(core.store, owner.user.id, { kind: 'hostfw' });
    const bound = await core.agents.bind(owner.user.id, { connector_id: connector.id, remote_ref: 'main' });
    const host = await core.hostAuth.verify(token);
    const safe = {
      terminal: 'off',
      files: 'off',
      reach: [],
      memory: 'off',
      runner: 'api',
      profile: 'own',
      extra_keys: 0,
    };
    await core.hosts.heartbeat(host, { sandbox: { main: safe } });
    await core.shares.grant(owner.user.id, { agent: bound.id, user: userId });
    const listed = await post({ action: 'list' }, mt);
    expect(listed.body.agents.find((a: Json) => a.id === bound.id)).toMatchObject({
      shared: true,
      shared_by: 'owner',
      presence: 'live',
      share_why: null,
      remote_ref: null,
      connector: null,
      commands: null,
    });
    for (const body of [
      { action: 'update', id: bound.id, name: 'Mine' },
      { action: 'update', id: bound.id, is_default: true },
      { action: 'pair_code', agent_id: bound.id },
      { action: 'delete', id: bound.id },
    ]) {
      const r = await post(body, mt);
      expect([r.status, r.body.error]).toEqual([403, 'shared_agent']);
    }
    const muted = await post({ action: 'update', id: bound.id, push_muted: true, sort: 3 }, app);
    expect(muted.body.agent).toMatchObject({ push_muted: true, sort: 3, shared: true });
    expect((await core.store.agents.get(bound.id))!.name).toBe('main');
  });
});
