// Turns a bearer credential into the connection principal the thread operations are scoped by.

import { digestsEqual, hashSecret } from '../kernel/crypto.js';
import { ServiceError } from '../kernel/errors.js';
import { systemClock } from '../kernel/system.js';
import type { ConnectorKind, ConnectorRecord, UserRecord } from '../model/records.js';
import type { Store } from '../model/repositories.js';
import { connectionState } from './connection-live.js';

/**
 * Who is calling a tool: one connection (a paired host or an OAuth approval) of one user. The agents it
 * serves are the agents bound to `connectorId`, read fresh on every operation.
 */
export interface ConnectionPrincipal {
  userId: string;
  connectorId: string;
  connectorKind: ConnectorKind;
  /** How the caller proved itself. */
  via: 'connector_token' | 'oauth';
}

/** Resolves an OAuth access token (`svc_at_...`) to the connector it was issued for, or null. */
export type AccessTokenResolver = (token: string) => Promise<{ connectorId: string } | null>;

export interface ConnectionAuthOptions {
  store: Store;
  now?: () => number;
  /** Plugged in by the OAuth package; without it `svc_at_` tokens are refused as unknown. */
  resolveAccessToken?: AccessTokenResolver;
  /** When set, a connector of another kind is refused (`NOT_AN_MCP_CONNECTOR` when this is `mcp`). */
  expectKind?: ConnectorKind;
  /** last_seen_at is written at most this often per connector (ms); default 30 s. */
  touchEveryMs?: number;
  /** Told when last_seen_at is written (the live status watch). */
  onSeen?: (connector: ConnectorRecord, at: number) => void;
}

export interface ConnectionAuth {
  /**
   * Verifies a token (the adapter reads it from `Authorization: Bearer ...` with http-kit's `bearerToken`);
   * null or undefined when none was sent.
   */
  verify(token: string | undefined | null): Promise<ConnectionPrincipal>;
}

/**
 * Verifies connector tokens (`svc_ct_`: SHA-256 lookup, constant-time compare, revoked and suspended
 * checks) and, once OAuth plugs in a resolver, access tokens (`svc_at_`).
 *
 * @example
 * ```ts
 * const auth = createConnectionAuth({ store, expectKind: 'mcp' });
 * const principal = await auth.verify(bearerToken(req.headers.authorization)); // throws ServiceError UNAUTHORIZED
 * ```
 */
export function createConnectionAuth(options: ConnectionAuthOptions): ConnectionAuth {
  const { store, resolveAccessToken, expectKind } = options;
  const now = options.now ?? systemClock;
  const touchEveryMs = options.touchEveryMs ?? 30_000;
  const unauthorized = () =>
    new ServiceError(
      'UNAUTHORIZED',
      'Missing or invalid credentials: send Authorization: Bearer svc_ct_<token>.',
    );

  async function checkConnector(
    c: ConnectorRecord | null,
    account: Pick<UserRecord, 'suspendedAt'> | null,
    via: ConnectionPrincipal['via'],
  ) {
    const state = connectionState(c, account);
    // ADR 0095: a removed connection is 409 on every surface, OAuth sign-ins included (a 401 would make
    // the client sign in again by itself, undoing what the person just did on purpose).
    if (state === 'revoked' && via === 'oauth') {
      throw new ServiceError(
        'CONNECTOR_REVOKED',
        'This sign-in was removed in the app; add the connector again in your AI app to reconnect.',
      );
    }
    if (state === 'revoked') {
      throw new ServiceError('CONNECTOR_REVOKED', 'This connection was removed in the app; pair again.');
    }
    if (state === 'suspended') throw new ServiceError('SUSPENDED', 'This connection is suspended.');
    if (state === 'account_suspended') throw new ServiceError('SUSPENDED', 'This account is suspended.');
    if (!c || state !== 'live') throw unauthorized();
    if (expectKind && c.kind !== expectKind) {
      throw new ServiceError(
        expectKind === 'mcp' ? 'NOT_AN_MCP_CONNECTOR' : 'FORBIDDEN',
        `This token belongs to a "${c.kind}" connector; this endpoint takes "${expectKind}" connections.`,
      );
    }
    const t = now();
    if (c.lastSeenAt === null || t - c.lastSeenAt >= touchEveryMs) {
      await store.connectors.touch(c.id, t);
      options.onSeen?.(c, t);
    }
    return { userId: c.userId, connectorId: c.id, connectorKind: c.kind, via };
  }

  return {
    async verify(token) {
      if (!token) throw unauthorized();
      if (token.startsWith('svc_ct_')) {
        const hash = hashSecret(token);
        // The connector and its account in one read: this runs on every tool call.
        const found = await store.connectors.findByTokenHashWithAccount(hash);
        // The lookup is by index; the compare guards an implementation that matches loosely.
        if (found && !digestsEqual(found.connector.tokenHash, hash)) throw unauthorized();
        return checkConnector(found?.connector ?? null, found?.account ?? null, 'connector_token');
      }
      if (token.startsWith('svc_at_') && resolveAccessToken) {
        const hit = await resolveAccessToken(token);
        if (!hit) throw unauthorized();
        const c = await store.connectors.get(hit.connectorId);
        return checkConnector(c, c ? await store.users.findById(c.userId) : null, 'oauth');
      }
      throw unauthorized();
    },
  };
}
