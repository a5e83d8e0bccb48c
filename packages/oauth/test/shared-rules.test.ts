// Rules the consent page shares with the rest of the service (issue 14): one code redemption (same
// normalisation, same throttle as host pairing) and "approve as an existing agent" keeping its paired host.
import { createConnectionAuth } from '@screen-service/registry/hosts';
import { isServiceError } from '@screen-service/registry/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeUrl, pkce, register, trade } from './flow-kit.js';
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

describe('one code redemption for pairing and the consent page', () => {
  it('the consent page takes "123-456" as pairing does', async () => {
    const { id, cookie } = await begin();
    const person = await seedPerson(s.store);
    const made = await s.agents.create(person.id, { name: 'Dashed' });
    const dashed = `${made.pairing!.code.slice(0, 3)}-${made.pairing!.code.slice(3)}`;
    const ok = await postJson(`${s.oauthUrl}/requests/${id}/code`, { code: dashed }, { cookie });
    expect(ok.body).toMatchObject({ status: 'approved', agent: { id: made.agent.id } });
  });

  it('wrong codes on the consent page and on pairing fill one throttle per address', async () => {
    const { id, cookie } = await begin();
    for (let i = 0; i < 10; i++) {
      const r = await postJson(`${s.oauthUrl}/requests/${id}/code`, { code: '000-000' }, { cookie });
      expect(r.body).toMatchObject({ error: 'invalid_grant' });
    }
    const page = await postJson(`${s.oauthUrl}/requests/${id}/code`, { code: '000 000' }, { cookie });
    expect(page.status).toBe(429);
    expect(page.body).toMatchObject({ error: 'temporarily_unavailable' });
    // The page's address is the loopback; pairing from there is throttled by the same count.
    const pairing = await s.pairing
      .pair({ code: '000000', remote_ref: 'x', kind: 'mcp', host_name: 'h', clientAddr: '127.0.0.1' })
      .catch((e) => e);
    expect(isServiceError(pairing) && pairing.code).toBe('TOO_MANY_ATTEMPTS');
    s.advance(10 * 60_000 + 1);
  });
});

describe('approving a sign-in as an existing agent', () => {
  it('an agent served by a paired host keeps that host; the sign-in serves it as well', async () => {
    const person = await seedPerson(s.store);
    const made = await s.agents.create(person.id, { name: 'Paired' });
    const paired = await s.pairing.pair({
      code: made.pairing!.code,
      remote_ref: 'paired',
      kind: 'mcp',
      host_name: 'laptop',
      clientAddr: '10.9.9.9',
    });
    const hostConnector = paired.connector.id;
    const { id, cookie, client, verifier } = await begin();
    await s.oauth.decide(person.id, id, { decision: 'allow', agent_id: made.agent.id });
    const back = new URL((await finish(s.oauthUrl, id, cookie)).location);
    const t = await trade(s, { client, verifier, code: back.searchParams.get('code')! });
    expect(t.status).toBe(200);

    const agent = await s.store.agents.get(made.agent.id);
    expect(agent!.connectorId).toBe(hostConnector);
    expect(agent!.remoteRef).toBe('paired');
    const auth = createConnectionAuth({ store: s.store, resolveAccessToken: s.oauth.resolveAccessToken });
    const viaHost = await auth.verify(paired.connector_token);
    const viaOAuth = await auth.verify(t.body.access_token);
    expect(viaOAuth.connectorId).not.toBe(hostConnector);
    expect((await s.store.agents.listByConnector(viaHost.connectorId)).map((a) => a.id)).toEqual([
      made.agent.id,
    ]);
    expect((await s.store.agents.listByConnector(viaOAuth.connectorId)).map((a) => a.id)).toEqual([
      made.agent.id,
    ]);
    const list = await s.agents.connections(person.id);
    expect(
      list
        .filter((c) => c.agents.some((a) => a.id === made.agent.id))
        .map((c) => c.via)
        .sort(),
    ).toEqual(['oauth', 'pairing']);
    // Removing the sign-in leaves the host serving the agent.
    await s.agents.removeConnection(person.id, viaOAuth.connectorId);
    await expect(auth.verify(t.body.access_token)).rejects.toThrow();
    expect((await auth.verify(paired.connector_token)).connectorId).toBe(hostConnector);
    expect((await s.agents.get(person.id, made.agent.id)).connector?.id).toBe(hostConnector);
  });

  it('a pending agent (no live connection) moves to the sign-in as before', async () => {
    const person = await seedPerson(s.store);
    const made = await s.agents.create(person.id, { name: 'Pending', pair: false });
    const { id, cookie, client, verifier } = await begin();
    await s.oauth.decide(person.id, id, { decision: 'allow', agent_id: made.agent.id });
    const back = new URL((await finish(s.oauthUrl, id, cookie)).location);
    const t = await trade(s, { client, verifier, code: back.searchParams.get('code')! });
    const hit = await s.oauth.resolveAccessToken(t.body.access_token);
    expect((await s.store.agents.get(made.agent.id))!.connectorId).toBe(hit!.connectorId);
  });
});
