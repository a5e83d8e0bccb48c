// "Is this connection live?": the one rule behind tool-call auth, OAuth token use and the agent status.
import { digestsEqual, hashSecret } from '../kernel/crypto.js';
import type { ConnectorRecord, UserRecord } from '../model/records.js';
import type { Store } from '../model/repositories.js';

/** Why a connection can or cannot act right now. */
export type ConnectionState =
  | 'live'
  | 'missing'
  | 'revoked'
  | 'suspended'
  | 'account_missing'
  | 'account_suspended';

/**
 * The state of a connection (a paired host or an OAuth approval) and, when given, its account: live only
 * when the connector exists, was not removed in the app, and neither it nor the account is suspended.
 * Pass `user` as `undefined` to judge the connector alone (the agent list does). A guarded claim of answers
 * (`ClaimGuard`, ADR 0298) asks the same question in SQL, in each store's claim statement: change this rule
 * and those statements together (the conformance case "claimAnswers with a guard" pins them to it).
 *
 * @example
 * ```ts
 * connectionState(connector, user); // 'live' | 'revoked' | ...
 * ```
 */
export function connectionState(
  connector: Pick<ConnectorRecord, 'revokedAt' | 'suspendedAt'> | null | undefined,
  user?: Pick<UserRecord, 'suspendedAt'> | null,
): ConnectionState {
  if (!connector) return 'missing';
  if (connector.revokedAt !== null) return 'revoked';
  if (connector.suspendedAt !== null) return 'suspended';
  if (user === null) return 'account_missing';
  if (user !== undefined && user.suspendedAt !== null) return 'account_suspended';
  return 'live';
}

/** True when {@link connectionState} is `live`. */
export function isConnectionLive(
  connector: ConnectorRecord | null | undefined,
  user?: UserRecord | null,
): boolean {
  return connectionState(connector, user) === 'live';
}

/**
 * The connection an OAuth access token (`svc_at_...`) was issued for, while the token is unrevoked and
 * unexpired; null otherwise. Whether that connection is live is {@link connectionState}'s question.
 *
 * @example
 * ```ts
 * const hit = await resolveAccessToken(store, token, now()); // { connectorId } | null
 * ```
 */
export async function resolveAccessToken(
  store: Pick<Store, 'oauth'>,
  token: string,
  at: number,
): Promise<{ connectorId: string } | null> {
  const hash = hashSecret(token);
  const t = await store.oauth.findToken(hash);
  if (t?.kind !== 'access' || !digestsEqual(t.tokenHash, hash)) return null;
  if (t.revokedAt !== null || t.expiresAt <= at) return null;
  return { connectorId: t.connectorId };
}
