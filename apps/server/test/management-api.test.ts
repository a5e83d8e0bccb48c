// The management API mounted at {agents_url}: doc2's Authentication table row by row, and isolation,
// table-driven over every action for both callers (the app's access token and a management token).
import { MANAGEMENT_ACTIONS, type ManagementAction } from '@screen-service/management-api';
import { MOUNTS } from '@screen-service/registry/mounts';
import { CORE_TABLES } from '@screen-service/store-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, type Reply, sqliteOf, startTestServer, type TestServer } from './harness.js';

let t: TestServer;
let call: ReturnType<typeof client>;

interface Person {
  id: string;
  email: string;
  password: string;
  app: string;
  mt: string;
  mtId: string;
  agentId: string;
  connectorId: string;
  connectorToken: string;
}

const agents = (token: string, body: Record<string, unknown>) => call('POST', MOUNTS.agents, { token, body });

async function person(email: string, password: string): Promise<Person> {
  const s = (await call('POST', '/auth/signup', { body: { email, password } })).body;
  const app = s.access_token as string;
  const made = (await agents(app, { action: 'token_create', name: `${email} robot` })).body;
  const created = (await agents(made.token, { action: 'create', name: `${email} agent`, pair: true })).body;
  const paired = await call('POST', MOUNTS.connect, {
    body: {
      action: 'pair',
      code: created.pairing.code,
      remote_ref: 'main',
      kind: 'hostfw',
      host_name: 'box',
    },
  });
  expect(paired.status).toBe(200);
  return {
    id: s.user.id,
    email,
    password,
    app,
    mt: made.token,
    mtId: made.management_token.id,
    agentId: created.agent.id,
    connectorId: paired.body.connector.id,
    connectorToken: paired.body.connector_token,
  };
}

/** Every row B owns, straight from the database. */
function snapshot(userId: string) {
  const out: Record<string, unknown[]> = {};
  for (const table of CORE_TABLES) {
    if (table === 'pair_attempts') continue;
    const where = table === 'users' ? 'id = ?' : 'user_id = ?';
    out[table] = sqliteOf(t).prepare(`SELECT * FROM ${table} WHERE ${where} ORDER BY rowid`).all(userId);
  }
  return out;
}

let a: Person;
let b: Person;
beforeAll(async () => {
  // Every doc2 row here comes from one account: a management bucket this suite never empties (the default
  // bucket is tested in @screen-service/management-api).
  t = await startTestServer({ SVC_MANAGEMENT_RATE_BURST: '10000', SVC_MANAGEMENT_RATE_PER_MINUTE: '10000' });
  call = client(t.base);
  a = await person('a@example.com', 'password of a!');
  b = await person('b@example.com', 'password of b!');
});
afterAll(() => t.close());

const expectError = (r: Reply, status: number, error: string) =>
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error });

type Caller = 'app' | 'mt';
// One entry per action: what A (with either credential) tries against B, and what A must get.
const cases: Record<ManagementAction, (token: string, as: Caller) => Promise<void>> = {
  list: async (token) => {
    const r = await agents(token, { action: 'list' });
    expect(r.status).toBe(200);
    const text = JSON.stringify(r.body);
    expect(text).toContain(a.agentId);
    expect(text).not.toContain(b.agentId);
    expect(text).not.toContain(b.connectorId);
  },
  create: async (token) => {
    expectError(
      await agents(token, { action: 'create', connector_id: b.connectorId, remote_ref: 'sneaky' }),
      404,
      'connector_not_found',
    );
    const r = await agents(token, { action: 'create', name: 'Mine', pair: true });
    expect(r.status).toBe(200);
    expect((await t.running.services.store.agents.get(r.body.agent.id))?.userId).toBe(a.id);
  },
  update: async (token) =>
    expectError(await agents(token, { action: 'update', id: b.agentId, name: 'Mine now' }), 404, 'not_found'),
  reorder: async (token) => {
    const r = await agents(token, { action: 'reorder', ids: [b.agentId] });
    expect(r.status).toBe(400);
  },
  pair_code: async (token) =>
    expectError(await agents(token, { action: 'pair_code', agent_id: b.agentId }), 404, 'not_found'),
  receipts: async (token) => {
    // Another person's thread is not found; one's own exports (ADR 0261).
    expectError(await agents(token, { action: 'receipts', agent_id: b.agentId }), 404, 'not_found');
    const r = await agents(token, { action: 'receipts', agent_id: a.agentId });
    expect([r.status, r.body.format, typeof r.body.receipts]).toEqual([200, 'jsonl', 'string']);
  },
  delete: async (token) =>
    expectError(await agents(token, { action: 'delete', id: b.agentId }), 404, 'not_found'),
  token_create: async (token, as) => {
    const r = await agents(token, { action: 'token_create', name: 'more' });
    if (as === 'mt') return expectError(r, 403, 'forbidden');
    expect(r.status).toBe(200);
    const row = sqliteOf(t)
      .prepare('SELECT user_id FROM management_tokens WHERE id = ?')
      .get(r.body.management_token.id) as { user_id: string };
    expect(row.user_id).toBe(a.id);
  },
  token_list: async (token, as) => {
    const r = await agents(token, { action: 'token_list' });
    if (as === 'mt') return expectError(r, 403, 'forbidden');
    expect(JSON.stringify(r.body)).toContain(a.mtId);
    expect(JSON.stringify(r.body)).not.toContain(b.mtId);
  },
  token_revoke: async (token, as) => {
    const r = await agents(token, { action: 'token_revoke', id: b.mtId });
    if (as === 'mt') return expectError(r, 403, 'forbidden');
    expectError(r, 404, 'not_found');
  },
  connector_revoke: async (token, as) => {
    const r = await agents(token, { action: 'connector_revoke', connector_id: b.connectorId });
    if (as === 'mt') return expectError(r, 403, 'forbidden');
    expectError(r, 404, 'connector_not_found');
  },
};

describe('isolation: A cannot read or change anything of B through the management API', () => {
  it('has a case for every action', () => {
    expect(Object.keys(cases).sort()).toEqual([...MANAGEMENT_ACTIONS].sort());
  });
  for (const as of ['app', 'mt'] as const) {
    for (const action of MANAGEMENT_ACTIONS) {
      it(`${action} with A's ${as === 'app' ? 'access token' : 'management token'}`, async () => {
        const before = snapshot(b.id);
        await cases[action](as === 'app' ? a.app : a.mt, as);
        expect(snapshot(b.id)).toEqual(before);
      });
    }
  }
});

describe('doc2 Authentication: what a management token may not do', () => {
  it('is not a database credential: the person API answers 401 to it (messages, agents, connections)', async () => {
    for (const [method, path] of [
      ['GET', `/agents/${a.agentId}/messages`],
      ['POST', `/agents/${a.agentId}/messages`],
      ['GET', '/agents'],
      ['GET', '/connections'],
      ['GET', '/me'],
    ] as const) {
      const r = await call(method, path, {
        token: a.mt,
        ...(method === 'POST' ? { body: { text: 'hi' } } : {}),
      });
      expect([method, path, r.status]).toEqual([method, path, 401]);
    }
  });

  it('cannot delete the account or revoke a host through the person API', async () => {
    expect((await call('DELETE', '/me', { token: a.mt, body: { password: a.password } })).status).toBe(401);
    expect((await call('DELETE', `/connections/${a.connectorId}`, { token: a.mt })).status).toBe(401);
    expect(await t.running.services.store.users.findById(a.id)).not.toBeNull();
    expect((await t.running.services.store.connectors.get(a.connectorId))?.revokedAt).toBeNull();
  });

  it('cannot manage tokens or revoke hosts through the management API (403 forbidden)', async () => {
    for (const action of ['token_create', 'token_list', 'token_revoke', 'connector_revoke']) {
      expectError(
        await agents(a.mt, { action, name: 'x', id: a.mtId, connector_id: a.connectorId }),
        403,
        'forbidden',
      );
    }
    expect((await t.running.services.store.connectors.get(a.connectorId))?.revokedAt).toBeNull();
  });

  it('is refused by the tool server and the host API', async () => {
    const mcp = await fetch(t.base + MOUNTS.mcp, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${a.mt}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(mcp.status).toBe(401);
    const code = (await agents(a.mt, { action: 'create', name: 'Via host', pair: true })).body.pairing.code;
    const host = await fetch(t.base + MOUNTS.connect, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.mt}`, 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'pair', code, remote_ref: 'x', kind: 'hostfw' }),
    });
    expect(host.status).toBe(401);
  });

  it('a host (connector token) may do nothing in the management API', async () => {
    expectError(await agents(a.connectorToken, { action: 'list' }), 401, 'unauthorized');
  });

  it('the app may do everything, including revoking a host and its own tokens', async () => {
    const extra = (await agents(a.app, { action: 'token_create', name: 'temp' })).body;
    expect((await agents(extra.token, { action: 'list' })).status).toBe(200);
    expect((await agents(a.app, { action: 'token_revoke', id: extra.management_token.id })).status).toBe(200);
    expectError(await agents(extra.token, { action: 'list' }), 401, 'unauthorized');
    const theme = await agents(a.app, {
      action: 'update',
      id: a.agentId,
      theme: { accent: '#336699' },
      push_muted: true,
    });
    expect(theme.body.agent).toMatchObject({ push_muted: true });
  });

  it('deleting the account deletes its tokens (zero rows) and they stop at once', async () => {
    const c = await (async () => {
      const s = (
        await call('POST', '/auth/signup', { body: { email: 'c@example.com', password: 'password of c!' } })
      ).body;
      const made = (await agents(s.access_token, { action: 'token_create', name: 'c robot' })).body;
      return { id: s.user.id as string, app: s.access_token as string, mt: made.token as string };
    })();
    expect((await agents(c.mt, { action: 'list' })).status).toBe(200);
    expect((await call('DELETE', '/me', { token: c.app, body: { password: 'password of c!' } })).status).toBe(
      204,
    );
    expectError(await agents(c.mt, { action: 'list' }), 401, 'unauthorized');
    expect(
      sqliteOf(t).prepare('SELECT COUNT(*) AS n FROM management_tokens WHERE user_id = ?').get(c.id),
    ).toEqual({ n: 0 });
  });
});
