// Isolation, table-driven over every route of the person's API: person A can read or change nothing of B's.

import { createECDH, randomBytes } from 'node:crypto';
import { personRoutes as routes } from '@screen-service/person-api';
import { queryTestDatabase } from '@screen-service/store-postgres/testing';
import { CORE_TABLES } from '@screen-service/store-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API,
  client,
  oauthSignIn,
  PNG,
  type Reply,
  sqliteOf,
  startTestServer,
  type TestServer,
} from './harness.js';

let t: TestServer;
let call: ReturnType<typeof client>;

interface Person {
  id: string;
  token: string;
  refresh: string;
  password: string;
  email: string;
  agentId: string;
  screenId: string;
  photoId: string;
  photoUrl: string;
  connectorId: string;
  connectorToken: string;
  /** An OAuth sign-in the person approved (a second connection, via oauth). */
  oauthRequestId: string;
  oauthAccess: string;
  /** The person's phone's push subscription endpoint. */
  pushEndpoint: string;
}

/** A subscription as a browser gives it (a real P-256 key, a random auth secret). */
function browserSubscription(name: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint: `https://push.example/${name}/${randomBytes(8).toString('hex')}`,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
    device: 'phone',
  };
}

async function person(email: string, password: string): Promise<Person> {
  const s = (await call('POST', '/auth/signup', { body: { email, password } })).body;
  const token = s.access_token as string;
  const created = (await call('POST', '/agents', { token, body: { name: `${email} agent` } })).body;
  const paired = await call('POST', '/functions/v1/svc-connect', {
    body: {
      action: 'pair',
      code: created.pairing.code,
      remote_ref: 'main',
      kind: 'mcp',
      host_name: `${email} host`,
    },
  });
  const { threadOps, connectionAuth } = t.running.services;
  const principal = await connectionAuth.verify(paired.body.connector_token);
  const shown = await threadOps.show(principal, { lines: 'choose@q "Q?" Yes|No' });
  // A relay table held by the agent, so the table controls have something of B's to refuse.
  await t.running.services.tables.call(principal, {
    lines: 'table create Secret Note:text\nput Secret Note=mine',
  });
  await call('POST', `/agents/${created.agent.id}/messages`, {
    token,
    body: { text: `hello from ${email}` },
  });
  const photo = (await call('POST', `/agents/${created.agent.id}/photos`, { token, raw: PNG })).body;
  const signedIn = await oauthSignIn(t.base, token, `${email} app`);
  const sub = browserSubscription(email);
  expect((await call('PUT', '/push/subscriptions', { token, body: sub })).status).toBe(200);
  return {
    pushEndpoint: sub.endpoint,
    id: s.user.id,
    token,
    refresh: s.refresh_token,
    password,
    email,
    agentId: created.agent.id,
    screenId: shown.screen_id,
    photoId: photo.id,
    photoUrl: photo.url,
    connectorId: paired.body.connector.id,
    connectorToken: paired.body.connector_token,
    oauthRequestId: signedIn.requestId,
    oauthAccess: signedIn.access_token,
  };
}

/** Every row B owns, straight from the database (the SQLite file, or PostgreSQL in physical order). */
async function snapshot(userId: string) {
  const out: Record<string, unknown[]> = {};
  for (const table of CORE_TABLES) {
    if (table === 'pair_attempts') continue; // holds no user data
    const where = table === 'users' ? 'id = ?' : 'user_id = ?';
    out[table] =
      t.databaseUrl === undefined
        ? sqliteOf(t).prepare(`SELECT * FROM ${table} WHERE ${where} ORDER BY rowid`).all(userId)
        : await queryTestDatabase(t.databaseUrl, `SELECT * FROM ${table} WHERE ${where} ORDER BY ctid`, [
            userId,
          ]);
  }
  return out;
}

let a: Person;
let b: Person;
/** B's native agent (a starter): its instructions are B's alone. */
let bNative: string;
beforeAll(async () => {
  // A model nobody answers at: native agents are offered; no test here sends them a message.
  t = await startTestServer({ SVC_MODEL_URL: 'http://127.0.0.1:9/v1', SVC_MODEL_NAME: 'test-model' });
  call = client(t.base);
  a = await person('a@example.com', 'password of a!');
  b = await person('b@example.com', 'password of b!');
  bNative = (await call('POST', '/native/agents', { token: b.token, body: { starter: 'todo-keeper' } })).body
    .id;
});
afterAll(() => t.close());

type Case = () => Promise<void>;
const notFound = (r: Reply) =>
  expect([r.status, r.body?.error]).toEqual([404, expect.stringMatching(/not_found$/)]);

// One entry per route: what A tries against B, and what A must get.
const bTableRows = async () =>
  (await t.running.services.store.relay.tables.getTable({ owner: b.id, holder: b.agentId, name: 'Secret' }))
    ?.rowCount;
const cases: Record<string, Case> = {
  'get /tables': async () => {
    const r = await call('GET', '/tables', { token: a.token });
    expect(r.body.tables.map((x: { holder: string }) => x.holder)).toEqual([a.agentId]);
  },
  'post /tables/give': async () => {
    const r = await call('POST', '/tables/give', {
      token: a.token,
      body: { table: 'Secret', from: b.agentId, to: a.agentId },
    });
    notFound(r);
    const into = await call('POST', '/tables/give', {
      token: a.token,
      body: { table: 'Secret', from: a.agentId, to: b.agentId },
    });
    notFound(into);
    expect(await bTableRows()).toBe(1);
  },
  'post /tables/take': async () => {
    notFound(
      await call('POST', '/tables/take', { token: a.token, body: { table: 'Secret', from: b.agentId } }),
    );
    expect(await bTableRows()).toBe(1);
  },
  'post /tables/delete': async () => {
    notFound(
      await call('POST', '/tables/delete', { token: a.token, body: { table: 'Secret', from: b.agentId } }),
    );
    expect(await bTableRows()).toBe(1);
  },
  'get /native': async () => {
    const r = await call('GET', '/native', { token: a.token });
    expect(r.body).toMatchObject({ available: true, starters: expect.any(Array) });
  },
  'post /native/agents': async () => {
    const r = await call('POST', '/native/agents', { token: a.token, body: { starter: 'todo-keeper' } });
    expect(r.status).toBe(201);
    const mine = (await call('GET', '/agents', { token: a.token })).body.agents.map(
      (x: { id: string }) => x.id,
    );
    expect(mine).toContain(r.body.id);
  },
  'get /agents/:agentId/instructions': async () => {
    notFound(await call('GET', `/agents/${bNative}/instructions`, { token: a.token }));
  },
  'put /agents/:agentId/instructions': async () => {
    notFound(
      await call('PUT', `/agents/${bNative}/instructions`, {
        token: a.token,
        body: { instructions: 'mine now' },
      }),
    );
  },
  'post /auth/signup': async () => {
    const r = await call('POST', '/auth/signup', { body: { email: b.email, password: 'taking over b' } });
    expect(r.status).toBe(409);
  },
  'post /auth/signin': async () => {
    const r = await call('POST', '/auth/signin', { body: { email: b.email, password: a.password } });
    expect(r.status).toBe(401);
  },
  'post /auth/refresh': async () => {
    const r = await call('POST', '/auth/refresh', { body: { refresh_token: a.refresh } });
    expect(r.body.user.id).toBe(a.id);
    a.token = r.body.access_token;
    a.refresh = r.body.refresh_token;
  },
  'post /auth/signout': async () => {
    const second = (await call('POST', '/auth/signin', { body: { email: a.email, password: a.password } }))
      .body;
    expect((await call('POST', '/auth/signout', { token: second.access_token })).status).toBe(204);
    expect((await call('GET', '/me', { token: b.token })).status).toBe(200);
    expect((await call('GET', '/me', { token: a.token })).status).toBe(200);
  },
  'post /auth/signout-everywhere': async () => {
    // A third person signs out everywhere: only their own sign-ins end (A's token is used by later cases).
    const c = (
      await call('POST', '/auth/signup', { body: { email: 'everywhere@example.com', password: a.password } })
    ).body;
    expect((await call('POST', '/auth/signout-everywhere', { token: c.access_token })).status).toBe(204);
    expect((await call('GET', '/me', { token: c.access_token })).status).toBe(401);
    expect((await call('GET', '/me', { token: a.token })).status).toBe(200);
    expect((await call('GET', '/me', { token: b.token })).status).toBe(200);
  },
  'get /app-config': async () => {
    const r = await call('GET', '/app-config', { token: a.token });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['image_cdn']);
  },
  'get /me': async () => {
    expect((await call('GET', '/me', { token: a.token })).body.id).toBe(a.id);
  },
  'put /me/time-zone': async () => {
    // The caller's own account only: there is no way to name another.
    const r = await call('PUT', '/me/time-zone', {
      token: a.token,
      body: { time_zone: 'Asia/Tokyo', how: 'pin' },
    });
    expect(r.body).toEqual({ time_zone: 'Asia/Tokyo', time_zone_pinned: true });
    expect((await call('GET', '/me', { token: b.token })).body.time_zone).not.toBe('Asia/Tokyo');
  },
  'delete /me': async () => {
    const r = await call('DELETE', '/me', { token: a.token, body: { password: b.password } });
    expect(r.status).toBe(401);
  },
  'get /agents': async () => {
    const r = await call('GET', '/agents', { token: a.token });
    expect(JSON.stringify(r.body)).not.toContain(b.agentId);
  },
  'post /agents': async () => {
    const r = await call('POST', '/agents', { token: a.token, body: { name: 'Another' } });
    expect(r.status).toBe(201);
    expect((await t.running.services.store.agents.get(r.body.agent.id))?.userId).toBe(a.id);
  },
  'put /agents/order': async () => {
    const r = await call('PUT', '/agents/order', { token: a.token, body: { ids: [b.agentId] } });
    expect(r.status).toBe(400);
  },
  'get /agents/:agentId': async () => notFound(await call('GET', `/agents/${b.agentId}`, { token: a.token })),
  'patch /agents/:agentId': async () =>
    notFound(
      await call('PATCH', `/agents/${b.agentId}`, {
        token: a.token,
        body: { name: 'Mine now', is_default: true },
      }),
    ),
  'delete /agents/:agentId': async () =>
    notFound(await call('DELETE', `/agents/${b.agentId}`, { token: a.token })),
  'post /agents/:agentId/code': async () =>
    notFound(await call('POST', `/agents/${b.agentId}/code`, { token: a.token })),
  'post /agents/:agentId/tables': async () => {
    notFound(await call('POST', `/agents/${b.agentId}/tables`, { token: a.token, body: {} }));
    // A's own copy holds A's table only.
    const own = await call('POST', `/agents/${a.agentId}/tables`, { token: a.token, body: {} });
    expect(own.body.tables.map((x: { name: string; rows: unknown[][] }) => [x.name, x.rows])).toEqual([
      ['Secret', [['r1', 'mine']]],
    ]);
  },
  'get /agents/:agentId/messages': async () =>
    notFound(await call('GET', `/agents/${b.agentId}/messages`, { token: a.token })),
  'post /agents/:agentId/messages': async () => {
    notFound(await call('POST', `/agents/${b.agentId}/messages`, { token: a.token, body: { text: 'hi' } }));
    // B's photo cannot ride on A's own message either.
    const r = await call('POST', `/agents/${a.agentId}/messages`, {
      token: a.token,
      body: { text: 'stolen photo', photo_ids: [b.photoId] },
    });
    expect(r.status).toBe(400);
  },
  'post /agents/:agentId/taps': async () => {
    const event = { id: 'q', value: 'Yes' };
    notFound(
      await call('POST', `/agents/${b.agentId}/taps`, {
        token: a.token,
        body: { screen_id: b.screenId, event },
      }),
    );
    notFound(
      await call('POST', `/agents/${a.agentId}/taps`, {
        token: a.token,
        body: { screen_id: b.screenId, event },
      }),
    );
  },
  'get /agents/:agentId/receipts': async () =>
    notFound(await call('GET', `/agents/${b.agentId}/receipts`, { token: a.token })),
  'get /receipt-keys': async () => {
    // Public keys only, for anyone: no private part of a signing key (ADR 0261).
    const r = await call('GET', '/receipt-keys');
    expect(r.status).toBe(200);
    for (const k of r.body.keys as Record<string, unknown>[])
      expect(Object.keys(k).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x']);
  },
  'put /agents/:agentId/presence': async () =>
    notFound(await call('PUT', `/agents/${b.agentId}/presence`, { token: a.token, body: { open: true } })),
  'post /agents/:agentId/read': async () =>
    notFound(await call('POST', `/agents/${b.agentId}/read`, { token: a.token, body: { seq: 999 } })),
  'post /agents/:agentId/photos': async () =>
    notFound(await call('POST', `/agents/${b.agentId}/photos`, { token: a.token, raw: PNG })),
  'get /photos/:photoId': async () => {
    const own = new URL(a.photoUrl);
    // A's valid signature does not open B's photo, and no signature opens nothing.
    notFound(await call('GET', `${API}/photos/${b.photoId}${own.search}`));
    notFound(await call('GET', `${API}/photos/${b.photoId}`));
  },
  'get /invites/:token': async () =>
    notFound(await call('GET', '/invites/svc_inv_not-a-real-invite-token', { token: a.token })),
  'post /invites/:token/claim': async () =>
    notFound(await call('POST', '/invites/svc_inv_not-a-real-invite-token/claim', { token: a.token })),
  'get /shares/given': async () => {
    expect((await call('GET', '/shares/given', { token: a.token })).body).toEqual({ grants: [] });
  },
  // An invite for B's agent: as missing as an unknown one (and no template or invite row of B's appears).
  'post /shares/invites': async () =>
    notFound(await call('POST', '/shares/invites', { token: a.token, body: { agent_id: b.agentId } })),
  'post /shares/revoke': async () =>
    notFound(
      await call('POST', '/shares/revoke', { token: a.token, body: { agent_id: b.agentId, user_id: a.id } }),
    ),
  'get /push': async () => {
    const r = await call('GET', '/push', { token: a.token });
    expect(r.body.subscriptions).toHaveLength(1);
    expect(JSON.stringify(r.body)).not.toContain(b.pushEndpoint);
  },
  'put /push/subscriptions': async () => {
    const r = await call('PUT', '/push/subscriptions', {
      token: a.token,
      body: { ...browserSubscription('a'), endpoint: b.pushEndpoint },
    });
    expect([r.status, r.body.error]).toEqual([409, 'conflict']);
  },
  'delete /push/subscriptions': async () => {
    const r = await call('DELETE', '/push/subscriptions', {
      token: a.token,
      body: { endpoint: b.pushEndpoint },
    });
    expect(r.status).toBe(204);
  },
  // A's own settings and presence: B's rows stay as they were (the snapshot checks push_settings and
  // person_presence).
  'put /push/settings': async () => {
    const r = await call('PUT', '/push/settings', { token: a.token, body: { plain_per_hour: 0 } });
    expect([r.status, r.body.plain_per_hour]).toEqual([200, 0]);
  },
  'put /presence': async () => {
    const r = await call('PUT', '/presence', { token: a.token, body: { active: true, device: 'a-phone' } });
    expect(r.status).toBe(200);
  },
  // No token of B's notification, no answer to B's screen: a made-up token is refused, nothing written.
  'post /push/answer': async () => {
    const r = await call('POST', '/push/answer', {
      body: { token: `svc_nt_${'A'.repeat(43)}`, screen_id: b.screenId, value: true },
    });
    expect(r.status).toBe(401);
  },
  'get /connections': async () => {
    const r = await call('GET', '/connections', { token: a.token });
    expect(JSON.stringify(r.body)).not.toContain(b.connectorId);
  },
  'delete /connections/:connectorId': async () =>
    notFound(await call('DELETE', `/connections/${b.connectorId}`, { token: a.token })),
  'get /oauth/requests/:requestId': async () =>
    notFound(await call('GET', `/oauth/requests/${b.oauthRequestId}`, { token: a.token })),
  'post /oauth/requests/:requestId/decision': async () => {
    notFound(
      await call('POST', `/oauth/requests/${b.oauthRequestId}/decision`, {
        token: a.token,
        body: { decision: 'allow', agent_id: a.agentId },
      }),
    );
    // B's agent cannot be what A's own sign-in talks as.
    const { oauth } = t.running.services;
    const started = await oauth.authorize({
      response_type: 'code',
      client_id: (await t.running.services.store.oauth.getRequest(a.oauthRequestId))!.clientId,
      redirect_uri: 'http://127.0.0.1:7777/cb',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      resource: t.running.services.mcpUrl,
    });
    notFound(
      await call('POST', `/oauth/requests/${started.requestId}/decision`, {
        token: a.token,
        body: { decision: 'allow', agent_id: b.agentId },
      }),
    );
  },
  'get /stream': async () => {
    const controller = new AbortController();
    const res = await fetch(`${t.base}${API}/stream`, {
      headers: { authorization: `Bearer ${a.token}` },
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    await reader.read(); // ': connected'
    await call('POST', `/agents/${b.agentId}/messages`, { token: b.token, body: { text: 'secret of b' } });
    // Then a writes in its own thread: the stream is ordered, so once a's own event arrives, anything of
    // b's would have come before it. No fixed wait for "nothing happened".
    await call('POST', `/agents/${a.agentId}/messages`, { token: a.token, body: { text: 'marker of a' } });
    let seen = '';
    while (!seen.includes('marker of a')) {
      const chunk = await reader.read();
      if (chunk.done) break;
      seen += new TextDecoder().decode(chunk.value);
    }
    controller.abort();
    expect(seen).toContain('marker of a');
    expect(seen).not.toContain('secret of b');
  },
};

describe('isolation between people (every route)', () => {
  it('has a case for every route in the table', () => {
    expect(Object.keys(cases).sort()).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());
  });

  it('every route refuses or ignores A acting on B, and B keeps every row as it was', async () => {
    const before = await snapshot(b.id);
    // The snapshot reads B's real rows on either store (an empty one would compare equal by itself).
    expect(before.agents?.length).toBeGreaterThan(0);
    expect(before.messages?.length).toBeGreaterThan(0);
    for (const r of routes) {
      const key = `${r.method} ${r.path}`;
      await cases[key]!().catch((err: Error) => {
        throw new Error(`${key}: ${err.message}`);
      });
    }
    const after = await snapshot(b.id);
    // B's own message during the stream case is the only new row, written by B.
    after.messages = after.messages!.filter((m) => (m as { body: string }).body !== 'secret of b');
    // That message also moves B's page version (ADR 0216), a value the database derives from the rows
    // (on PostgreSQL the update also moves the row to a new ctid, so the rows are compared in key order).
    for (const snap of [before, after]) {
      snap.thread_state = snap
        .thread_state!.map((row) => {
          const { page_version: _, ...rest } = row as Record<string, unknown>;
          return rest;
        })
        .sort((x, y) => String(x.agent_id).localeCompare(String(y.agent_id)));
    }
    expect(after).toEqual(before);
  });

  it('refuses every user route without a token, or with a connector token in place of an app token', async () => {
    for (const r of routes.filter((x) => x.auth === 'user')) {
      const p = r.path
        .replace(':agentId', a.agentId)
        .replace(':connectorId', a.connectorId)
        .replace(':requestId', a.oauthRequestId);
      const res = await call(r.method.toUpperCase(), p, {});
      expect(res.status, `${r.method} ${r.path}`).toBe(401);
      const withHostToken = await call(r.method.toUpperCase(), p, { token: a.connectorToken });
      expect(withHostToken.status, `${r.method} ${r.path} with svc_ct_`).toBe(401);
      const withOAuthToken = await call(r.method.toUpperCase(), p, { token: a.oauthAccess });
      expect(withOAuthToken.status, `${r.method} ${r.path} with svc_at_`).toBe(401);
    }
  });
});
