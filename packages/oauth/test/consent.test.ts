// The consent handshake: the page's endpoints are bound to the browser that started the flow, learn of a
// decision by long-poll, take a 6-digit code or a cancel, and finish once; the person's decisions are scoped.
import { isServiceError } from '@screen-service/registry/kernel';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { authorizeUrl, pkce, REDIRECT, register, trade } from './flow-kit.js';
import {
  finish,
  postJson,
  seedPerson,
  startAuthorize,
  startAuthServer,
  type TestAuthServer,
} from './harness.js';

let s: TestAuthServer;
beforeAll(async () => {
  s = await startAuthServer({ register: { burst: 500, perMinute: 60 } });
});
afterAll(() => s.close());

async function begin() {
  const client = await register(s);
  const { verifier, challenge } = pkce();
  const started = await startAuthorize(authorizeUrl(s, client.clientId, challenge));
  return { client, verifier, id: started.requestId!, cookie: started.cookie };
}

const page = (id: string, cookie?: string, query = '') =>
  fetch(`${s.oauthUrl}/requests/${id}${query}`, { headers: cookie ? { cookie } : {} });
const code = (err: unknown) => (isServiceError(err) ? err.code : String(err));

describe('the consent page endpoints', () => {
  it('read the request only with the cookie of the browser that started it', async () => {
    const { id, cookie } = await begin();
    const ok = await page(id, cookie);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({
      id,
      status: 'pending',
      client: { name: 'Kit client', uri: null, logo_uri: null, host: null },
      redirect: { uri: REDIRECT, host: '127.0.0.1:7777' },
      approve_url: `${s.base}/#/approve/${id}`,
      expires_at: expect.any(String),
      agent: null,
    });
    expect((await page(id)).status).toBe(403);
    expect(await (await page(id, 'svc_oauth=not-the-secret')).json()).toMatchObject({
      error: 'access_denied',
    });
    expect((await page('ar_unknown', cookie)).status).toBe(404);
    const other = await begin();
    expect((await page(id, other.cookie)).status).toBe(403);
  });

  it('a waiting page wakes as soon as the person approves, and finishing sends the code once', async () => {
    const { id, cookie, client, verifier } = await begin();
    const person = await seedPerson(s.store);
    const t0 = Date.now();
    const waiting = page(id, cookie, '?wait=10').then(async (r) => ({
      at: Date.now(),
      body: await r.json(),
    }));
    await vi.waitFor(() => expect(s.oauth.waitingPages()).toBe(1));
    await s.oauth.decide(person.id, id, { decision: 'allow', agent_name: 'My editor' });
    const woke = await waiting;
    expect(woke.body).toMatchObject({ status: 'approved', agent: { name: 'My editor' } });
    expect(woke.at - t0).toBeLessThan(1500);
    expect(s.oauth.waitingPages()).toBe(0);
    const back = await finish(s.oauthUrl, id, cookie);
    expect(back.res.headers.get('set-cookie')).toMatch(/svc_oauth=;/);
    const p = new URL(back.location).searchParams;
    expect(p.get('state')).toBe('st-1');
    expect(p.get('iss')).toBe(s.oauthUrl);
    expect((await trade(s, { client, verifier, code: p.get('code')! })).status).toBe(200);
    const twice = await finish(s.oauthUrl, id, cookie);
    expect(twice.status).toBe(409);
    expect(await (await page(id, cookie)).json()).toMatchObject({ status: 'finished' });
  });

  it('a 6-digit code from the app approves as that agent; wrong codes are refused and counted', async () => {
    const { id, cookie } = await begin();
    const person = await seedPerson(s.store);
    const made = await s.agents.create(person.id, { name: 'Code agent' });
    const enter = (c: string, addr = cookie) =>
      postJson(`${s.oauthUrl}/requests/${id}/code`, { code: c }, { cookie: addr });
    const wrongDigit = String((Number(made.pairing!.code[0]) + 1) % 10) + made.pairing!.code.slice(1);
    expect((await enter(wrongDigit)).body).toMatchObject({ error: 'invalid_grant' });
    expect((await enter('12')).body.error_description).toMatch(/6 digits/);
    expect((await postJson(`${s.oauthUrl}/requests/${id}/code`, { code: made.pairing!.code })).status).toBe(
      403,
    );
    const ok = await enter(`${made.pairing!.code.slice(0, 3)} ${made.pairing!.code.slice(3)}`);
    expect(ok.body).toMatchObject({ status: 'approved', agent: { id: made.agent.id, name: 'Code agent' } });
    expect((await enter(made.pairing!.code)).status).toBe(409);
    // The code is spent: the pairing host API can no longer use it.
    await expect(
      s.pairing.pair({
        code: made.pairing!.code,
        remote_ref: 'x',
        kind: 'mcp',
        host_name: 'h',
        clientAddr: '10.0.0.1',
      }),
    ).rejects.toThrow(/unknown, used or expired/);
  });

  it('cancel on the page is a denial: the client gets access_denied with state and iss', async () => {
    const { id, cookie } = await begin();
    const r = await postJson(`${s.oauthUrl}/requests/${id}/cancel`, {}, { cookie });
    expect(r.body.status).toBe('denied');
    const back = new URL((await finish(s.oauthUrl, id, cookie)).location);
    expect(Object.fromEntries(back.searchParams)).toMatchObject({
      error: 'access_denied',
      state: 'st-1',
      iss: s.oauthUrl,
    });
    const person = await seedPerson(s.store);
    expect(code(await s.oauth.decide(person.id, id, { decision: 'allow' }).catch((e) => e))).toBe(
      'OAUTH_REQUEST_DECIDED',
    );
  });

  it('an unfinished request expires: no decision, and finishing tells the client access_denied', async () => {
    const { id, cookie } = await begin();
    const person = await seedPerson(s.store);
    s.advance(16 * 60_000);
    try {
      expect(await (await page(id, cookie)).json()).toMatchObject({ status: 'expired' });
      expect(code(await s.oauth.decide(person.id, id, { decision: 'allow' }).catch((e) => e))).toBe(
        'OAUTH_REQUEST_EXPIRED',
      );
      const back = new URL((await finish(s.oauthUrl, id, cookie)).location);
      expect(back.searchParams.get('error')).toBe('access_denied');
    } finally {
      s.advance(-16 * 60_000);
    }
  });
});

describe("the person's decision", () => {
  it('binds an existing agent of theirs; another account neither sees a decided request nor uses its agents', async () => {
    const { id, cookie, client, verifier } = await begin();
    const ada = await seedPerson(s.store);
    const bob = await seedPerson(s.store);
    const adaAgent = (await s.agents.create(ada.id, { name: 'Existing', pair: false })).agent;
    expect((await s.oauth.personView(bob.id, id)).status).toBe('pending'); // the link alone is enough to see it
    expect(
      code(await s.oauth.decide(bob.id, id, { decision: 'allow', agent_id: adaAgent.id }).catch((e) => e)),
    ).toBe('AGENT_NOT_FOUND');
    const view = await s.oauth.decide(ada.id, id, { decision: 'allow', agent_id: adaAgent.id });
    expect(view.agent).toEqual({ id: adaAgent.id, name: 'Existing' });
    expect(code(await s.oauth.personView(bob.id, id).catch((e) => e))).toBe('OAUTH_REQUEST_NOT_FOUND');
    expect(code(await s.oauth.decide(ada.id, id, { decision: 'deny' }).catch((e) => e))).toBe(
      'OAUTH_REQUEST_DECIDED',
    );
    const back = new URL((await finish(s.oauthUrl, id, cookie)).location);
    const t = await trade(s, { client, verifier, code: back.searchParams.get('code')! });
    const hit = await s.oauth.resolveAccessToken(t.body.access_token);
    expect((await s.store.agents.listByConnector(hit!.connectorId)).map((a) => a.id)).toEqual([adaAgent.id]);
    // The connection shows in the person's list like a paired computer.
    const list = await s.agents.connections(ada.id);
    expect(list.map((c) => c.name)).toContain('Kit client');
  });

  it('a denial by the person reaches the client as access_denied; no agent is created', async () => {
    const { id, cookie } = await begin();
    const person = await seedPerson(s.store);
    await s.oauth.decide(person.id, id, { decision: 'deny' });
    expect(await s.store.agents.listByUser(person.id)).toEqual([]);
    const back = new URL((await finish(s.oauthUrl, id, cookie)).location);
    expect(back.searchParams.get('error')).toBe('access_denied');
  });
});
