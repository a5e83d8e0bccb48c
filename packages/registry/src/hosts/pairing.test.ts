import { createTestStore as openHarness, seedUser } from '@screen-service/test-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPersonAgents, type PersonAgents } from '../agents/person-agents.js';
import { hashSecret, normalizeCode } from '../kernel/crypto.js';
import { ServiceError } from '../kernel/errors.js';
import { seededRandom } from '../kernel/system.js';
import { createConnectionAuth } from './connection-auth.js';
import { createPairing, PAIRING_CODE_TTL_MS, type Pairing } from './pairing.js';

let h: ReturnType<typeof openHarness>;
let clock: number;
let pairing: Pairing;
let agents: PersonAgents;
beforeEach(() => {
  h = openHarness();
  clock = Date.UTC(2026, 10, 21, 12);
  const now = () => clock;
  pairing = createPairing({ store: h.store, now });
  agents = createPersonAgents({ store: h.store, pairing, now });
});
afterEach(() => h.close());

const failCode = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => (e instanceof ServiceError ? `${e.code}${e.field ? `:${e.field}` : ''}` : String(e)),
  );
const pairReq = (code: string, over: Record<string, unknown> = {}) => ({
  code,
  remote_ref: 'claude',
  kind: 'mcp',
  host_name: 'laptop',
  clientAddr: '10.0.0.1',
  ...over,
});

describe('pairing', () => {
  it('claims a code: new connector, token shown once and stored only as SHA-256, agent bound', async () => {
    const u = await seedUser(h.store);
    const { agent, pairing: code } = await agents.create(u.id, { name: 'Claude Desktop' });
    expect(agent.status).toBe('pending');
    expect(code?.code).toMatch(/^\d{6}$/);
    const r = await pairing.pair(pairReq(code!.code));
    expect(r.connector_token).toMatch(/^svc_ct_[A-Za-z0-9_-]{43}$/);
    expect(r.connector).toMatchObject({ name: 'laptop', kind: 'mcp' });
    expect(r.agent).toMatchObject({ id: agent.id, remote_ref: 'claude', status: 'connected' });
    const c = await h.store.connectors.get(r.connector.id);
    expect(c?.tokenHash).toBe(hashSecret(r.connector_token!));
    const principal = await createConnectionAuth({ store: h.store }).verify(r.connector_token);
    expect(principal.userId).toBe(u.id);
  });

  it('a code works once', async () => {
    const u = await seedUser(h.store);
    const { pairing: code } = await agents.create(u.id, { name: 'A' });
    await pairing.pair(pairReq(code!.code));
    expect(await failCode(pairing.pair(pairReq(code!.code, { remote_ref: 'other' })))).toBe(
      'INVALID_OR_EXPIRED_CODE',
    );
  });

  it('a code expires after 10 minutes', async () => {
    const u = await seedUser(h.store);
    const { pairing: code } = await agents.create(u.id, { name: 'A' });
    clock += PAIRING_CODE_TTL_MS;
    expect(await failCode(pairing.pair(pairReq(code!.code)))).toBe('INVALID_OR_EXPIRED_CODE');
  });

  it('minting a new code deletes the agent unused ones', async () => {
    const u = await seedUser(h.store);
    const { agent, pairing: first } = await agents.create(u.id, { name: 'A' });
    const second = await agents.mintCode(u.id, agent.id);
    expect(await failCode(pairing.pair(pairReq(first!.code)))).toBe('INVALID_OR_EXPIRED_CODE');
    expect(await failCode(pairing.pair(pairReq(second.code)))).toBe('ok');
    expect(await h.inspect.count('pairing_codes', { agent_id: agent.id })).toBe(1);
  });

  it('keeps an unused code hash unique across users', async () => {
    const u = await seedUser(h.store);
    const v = await seedUser(h.store);
    const a = await agents.create(u.id, { name: 'A', pair: false });
    const b = await agents.create(v.id, { name: 'B', pair: false });
    const row = (userId: string, agentId: string, id: string) => ({
      id,
      userId,
      agentId,
      codeHash: hashSecret('123456'),
      createdAt: clock,
      expiresAt: clock + PAIRING_CODE_TTL_MS,
      usedAt: null,
      connectorId: null,
    });
    expect(await h.store.pairing.insert(row(u.id, a.agent.id, 'p1'))).toBe(true);
    expect(await h.store.pairing.insert(row(v.id, b.agent.id, 'p2'))).toBe(false);
    expect((await h.store.pairing.findUnused(hashSecret('123456')))?.id).toBe('p1');
  });

  it('an expired unused code does not hold its digits: minting them again replaces it', async () => {
    const u = await seedUser(h.store);
    const v = await seedUser(h.store);
    // Two pairings drawing the same digits (the same seed): the second draws what the first handed out.
    const now = () => clock;
    const first = createPairing({ store: h.store, now, random: seededRandom(5) });
    const second = createPairing({ store: h.store, now, random: seededRandom(5) });
    const a = await agents.create(u.id, { name: 'A', pair: false });
    const b = await agents.create(v.id, { name: 'B', pair: false });
    const old = await first.mintCode(u.id, a.agent.id);
    // While the first is live, the same digits cannot be minted again: a fresh draw is made instead.
    expect((await second.mintCode(v.id, b.agent.id)).code).not.toBe(old.code);
    clock += PAIRING_CODE_TTL_MS;
    const again = createPairing({ store: h.store, now, random: seededRandom(5) });
    expect((await again.mintCode(v.id, b.agent.id)).code).toBe(old.code);
    expect((await h.store.pairing.findUnused(hashSecret(normalizeCode(old.code)!)))?.agentId).toBe(
      b.agent.id,
    );
  });

  it('reuses the connector when called with its token (connector_token null)', async () => {
    const u = await seedUser(h.store);
    const first = await agents.create(u.id, { name: 'A' });
    const r1 = await pairing.pair(pairReq(first.pairing!.code));
    const second = await agents.create(u.id, { name: 'B' });
    const r2 = await pairing.pair(
      pairReq(second.pairing!.code, { remote_ref: 'b', connectorToken: r1.connector_token }),
    );
    expect(r2.connector_token).toBeNull();
    expect(r2.connector.id).toBe(r1.connector.id);
    expect((await h.store.agents.listByConnector(r1.connector.id)).map((a) => a.remoteRef)).toEqual([
      'claude',
      'b',
    ]);
  });

  it("refuses to put another person's agent on my connector", async () => {
    const u = await seedUser(h.store);
    const v = await seedUser(h.store);
    const mine = await pairing.pair(pairReq((await agents.create(u.id, { name: 'Mine' })).pairing!.code));
    const theirs = await agents.create(v.id, { name: 'Theirs' });
    const attempt = pairReq(theirs.pairing!.code, { remote_ref: 'x', connectorToken: mine.connector_token });
    expect(await failCode(pairing.pair(attempt))).toBe('FORBIDDEN');
    expect((await h.store.agents.get(theirs.agent.id))?.connectorId).toBeNull();
    expect((await h.store.agents.listByConnector(mine.connector.id)).map((a) => a.userId)).toEqual([u.id]);
  });

  it('refuses a profile already added to that connector, without using the code', async () => {
    const u = await seedUser(h.store);
    const first = await agents.create(u.id, { name: 'A' });
    const r1 = await pairing.pair(pairReq(first.pairing!.code));
    const second = await agents.create(u.id, { name: 'B' });
    const again = pairReq(second.pairing!.code, { connectorToken: r1.connector_token });
    expect(await failCode(pairing.pair(again))).toBe('PROFILE_ALREADY_ADDED:remote_ref');
    expect(await failCode(pairing.pair({ ...again, remote_ref: 'fresh' }))).toBe('ok');
  });

  it('throttles: after 10 wrong codes from one address, even a right code gets TOO_MANY_ATTEMPTS', async () => {
    const u = await seedUser(h.store);
    const { pairing: code } = await agents.create(u.id, { name: 'A' });
    const wrong = code!.code === '000000' ? '000001' : '000000';
    for (let i = 0; i < 10; i++) {
      expect(await failCode(pairing.pair(pairReq(wrong)))).toBe('INVALID_OR_EXPIRED_CODE');
    }
    expect(await failCode(pairing.pair(pairReq(code!.code)))).toBe('TOO_MANY_ATTEMPTS');
    expect(await failCode(pairing.pair(pairReq(code!.code, { clientAddr: '10.0.0.2' })))).toBe('ok');
    clock += 10 * 60 * 1000 + 1;
    const next = await agents.create(u.id, { name: 'B' });
    expect(await failCode(pairing.pair(pairReq(next.pairing!.code, { remote_ref: 'b' })))).toBe('ok');
  });

  it.each([
    [{ code: '12345' }, 'INVALID_INPUT:code'],
    [{ code: 123456 }, 'INVALID_INPUT:code'],
    [{ remote_ref: 'has space' }, 'INVALID_INPUT:remote_ref'],
    [{ kind: 'ftp' }, 'INVALID_INPUT:kind'],
    [{ host_name: '' }, 'INVALID_INPUT:host_name'],
  ])('refuses bad input %o naming the field', async (over, expected) => {
    expect(await failCode(pairing.pair(pairReq('123456', over)))).toBe(expected);
  });
});
