import { createTestStore as openHarness, seedConnection, seedUser } from '@screen-service/test-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mintToken } from '../kernel/crypto.js';
import { ServiceError } from '../kernel/errors.js';
import { createConnectionAuth } from './connection-auth.js';

let h: ReturnType<typeof openHarness>;
beforeEach(() => {
  h = openHarness();
});
afterEach(() => h.close());

async function code(p: Promise<unknown>) {
  return p.then(
    () => 'ok',
    (e: unknown) => (e instanceof ServiceError ? e.code : String(e)),
  );
}

describe('createConnectionAuth', () => {
  it('accepts a live connector token and touches last_seen_at', async () => {
    const user = await seedUser(h.store);
    const { token, connector } = await seedConnection(h.store, user.id, ['a']);
    const auth = createConnectionAuth({ store: h.store, now: () => 1_000_000 });
    expect(await auth.verify(token)).toEqual({
      userId: user.id,
      connectorId: connector.id,
      connectorKind: 'mcp',
      via: 'connector_token',
    });
    expect((await h.store.connectors.get(connector.id))?.lastSeenAt).toBe(1_000_000);
  });

  it.each([
    ['nothing', undefined],
    ['an empty token', ''],
    ['an unknown token', mintToken('svc_ct_')],
    ['a token of another family', mintToken('svc_mt_')],
    ['an access token without the OAuth resolver', mintToken('svc_at_')],
    ['a whole header instead of its token', 'Basic abc'],
  ])('refuses %s with UNAUTHORIZED', async (_name, token) => {
    expect(await code(createConnectionAuth({ store: h.store }).verify(token))).toBe('UNAUTHORIZED');
  });

  it('stops a revoked connector at once, and refuses suspended connectors and accounts', async () => {
    const user = await seedUser(h.store);
    const { token, connector } = await seedConnection(h.store, user.id, ['a']);
    const auth = createConnectionAuth({ store: h.store });
    await h.store.connectors.revoke(connector.id, Date.now());
    expect(await code(auth.verify(token))).toBe('CONNECTOR_REVOKED');

    const second = await seedConnection(h.store, user.id, ['b']);
    await h.inspect.update('connectors', { suspended_at: 1 }, { id: second.connector.id });
    expect(await code(auth.verify(second.token))).toBe('SUSPENDED');

    const third = await seedConnection(h.store, user.id, ['c']);
    await h.inspect.update('users', { suspended_at: 1 }, { id: user.id });
    expect(await code(auth.verify(third.token))).toBe('SUSPENDED');
  });

  it('refuses a host connector where an MCP connection is expected', async () => {
    const user = await seedUser(h.store);
    const { token } = await seedConnection(h.store, user.id, ['a'], 'hostfw');
    expect(await code(createConnectionAuth({ store: h.store, expectKind: 'mcp' }).verify(token))).toBe(
      'NOT_AN_MCP_CONNECTOR',
    );
  });

  it('accepts svc_at_ tokens through the resolver OAuth plugs in', async () => {
    const user = await seedUser(h.store);
    const { connector } = await seedConnection(h.store, user.id, ['a']);
    const good = mintToken('svc_at_');
    const auth = createConnectionAuth({
      store: h.store,
      resolveAccessToken: async (t) => (t === good ? { connectorId: connector.id } : null),
    });
    expect(await auth.verify(good)).toMatchObject({ connectorId: connector.id, via: 'oauth' });
    expect(await code(auth.verify(mintToken('svc_at_')))).toBe('UNAUTHORIZED');
    // Removing the connection in the app: the access token answers CONNECTOR_REVOKED (ADR 0095).
    await h.store.connectors.revoke(connector.id, Date.now());
    expect(await code(auth.verify(good))).toBe('CONNECTOR_REVOKED');
  });
});
