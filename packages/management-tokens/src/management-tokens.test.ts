import { createPersonAgents } from '@screen-service/registry/agents';
import { createPairing } from '@screen-service/registry/hosts';
import { hashSecret, ServiceError, seededRandom } from '@screen-service/registry/kernel';
import { createTestStore as openHarness, seedConnector, seedUser } from '@screen-service/test-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgentManagement } from './agent-management.js';
import { createManagementTokens, type ManagementTokens } from './management-tokens.js';

let h: ReturnType<typeof openHarness>;
let clock: number;
let tokens: ManagementTokens;
beforeEach(() => {
  h = openHarness();
  clock = Date.UTC(2026, 10, 23, 12);
  tokens = createManagementTokens({ store: h.store, now: () => clock, random: seededRandom(7) });
});
afterEach(() => h.close());

const failCode = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => (e instanceof ServiceError ? `${e.code}${e.field ? `:${e.field}` : ''}` : String(e)),
  );

describe('management tokens', () => {
  it('mints svc_mt_ once, stores only the hash, keeps last_used_at, stops at revoke', async () => {
    const u = await seedUser(h.store);
    const { token, management_token: view } = await tokens.create(u.id, '  laptop agent ');
    expect(token).toMatch(/^svc_mt_[A-Za-z0-9_-]{43}$/);
    expect(view).toMatchObject({ name: 'laptop agent', scope: 'agents:manage', last_used_at: null });
    const [row] = await h.inspect.rows('management_tokens', { id: view.id });
    expect(row?.token_hash).toBe(hashSecret(token));
    expect(JSON.stringify(row)).not.toContain(token);
    clock += 5_000;
    expect(await tokens.verify(token)).toEqual({ userId: u.id, tokenId: view.id });
    expect((await tokens.list(u.id))[0]!.last_used_at).toBe(new Date(clock).toISOString());
    await tokens.revoke(u.id, view.id);
    expect(await failCode(tokens.verify(token))).toBe('UNAUTHORIZED');
    expect(await failCode(tokens.revoke(u.id, view.id))).toBe('NOT_FOUND:id');
  });

  it('refuses bad names, unknown tokens, another user revoking, suspended accounts', async () => {
    const u = await seedUser(h.store);
    const other = await seedUser(h.store);
    for (const name of ['', '   ', 'x'.repeat(41), 'two\nlines', 7]) {
      expect(await failCode(tokens.create(u.id, name))).toBe('INVALID_INPUT:name');
    }
    expect(await failCode(tokens.verify('svc_mt_nope'))).toBe('UNAUTHORIZED');
    expect(await failCode(tokens.verify('svc_ct_nope'))).toBe('UNAUTHORIZED');
    const { token, management_token } = await tokens.create(u.id, 'a');
    expect(await failCode(tokens.revoke(other.id, management_token.id))).toBe('NOT_FOUND:id');
    expect(await tokens.verify(token)).toMatchObject({ userId: u.id });
    await h.inspect.update('users', { suspended_at: 1 }, { id: u.id });
    expect(await failCode(tokens.verify(token))).toBe('SUSPENDED');
  });
});

describe('agent management gates', () => {
  it('a management token cannot manage tokens, revoke hosts or change app-only fields; bind checks the connector', async () => {
    const u = await seedUser(h.store);
    const other = await seedUser(h.store);
    const pairing = createPairing({ store: h.store, now: () => clock });
    const agents = createPersonAgents({ store: h.store, pairing, now: () => clock });
    const mgmt = createAgentManagement({
      store: h.store,
      accounts: { verifyAccess: async () => ({ userId: u.id, sessionFamily: 'f' }) },
      agents,
      tokens,
      deleteAgent: agents.delete,
    });
    const { token } = await tokens.create(u.id, 'robot');
    const caller = await mgmt.authenticate(token);
    expect(caller).toMatchObject({ via: 'management_token', userId: u.id });
    expect(await mgmt.authenticate('some.jwt.here')).toEqual({ via: 'app', userId: u.id });
    expect(await failCode(mgmt.authenticate(undefined))).toBe('UNAUTHORIZED');
    expect(await failCode(mgmt.tokenCreate(caller, 'x'))).toBe('FORBIDDEN');
    expect(await failCode(mgmt.tokenList(caller))).toBe('FORBIDDEN');
    expect(await failCode(mgmt.tokenRevoke(caller, 'mt_x'))).toBe('FORBIDDEN');
    expect(await failCode(mgmt.connectorRevoke(caller, 'con_x'))).toBe('FORBIDDEN');
    const { agent } = await mgmt.create(caller, { name: 'Research', pair: false });
    expect(await failCode(mgmt.update(caller, agent.id, { theme: {} }))).toBe('FORBIDDEN:theme');
    expect((await mgmt.update(caller, agent.id, { name: 'R2' })).agent.name).toBe('R2');

    const { connector } = await seedConnector(h.store, u.id, { kind: 'hostfw' });
    const { connector: theirs } = await seedConnector(h.store, other.id, { kind: 'hostfw' });
    const bound = await mgmt.create(caller, { connector_id: connector.id, remote_ref: 'coder' });
    expect(bound.agent).toMatchObject({ name: 'coder', remote_ref: 'coder', kind: 'hostfw' });
    expect(await failCode(mgmt.create(caller, { connector_id: connector.id, remote_ref: 'coder' }))).toBe(
      'PROFILE_ALREADY_ADDED:remote_ref',
    );
    expect(await failCode(mgmt.create(caller, { connector_id: theirs.id, remote_ref: 'x' }))).toBe(
      'CONNECTOR_NOT_FOUND:connector_id',
    );
    await h.store.connectors.revoke(connector.id, clock);
    expect(await failCode(mgmt.create(caller, { connector_id: connector.id, remote_ref: 'y' }))).toBe(
      'CONNECTOR_REVOKED:connector_id',
    );
  });
});
