// The liveness gate of a guarded claim (ADR 0298) and a guarded read (ADR 0301): one SQL fragment for both.
import { ClaimRefused } from '@screen-service/registry/model';
import type { SqliteDb } from './rows.js';

type Row = Record<string, unknown>;

/**
 * The gate, parameter `@connectorId`: a row when the connector exists, is not revoked or suspended, and its
 * account exists and is not suspended. It mirrors `connectionState(connector, user) === 'live'` (registry's
 * hosts/connection-live.ts); the conformance cases "claimAnswers with a guard" and "pendingForHost with a
 * guard" pin the two together.
 */
export const LIVE_CONNECTION = `SELECT 1 FROM connectors k JOIN users u ON u.id = k.user_id
  WHERE k.id = @connectorId AND k.revoked_at IS NULL AND k.suspended_at IS NULL AND u.suspended_at IS NULL`;

/**
 * What the gate read (`live` 1 or 0, the connector's and the account's marks, nulls when a row is gone),
 * for a guarded statement that returned nothing: read in the same transaction, so the same state.
 */
const GATE_FACTS = `SELECT EXISTS (${LIVE_CONNECTION}) AS live, k.id AS connector_id, k.revoked_at, k.suspended_at,
       u.id AS account_id,
       u.suspended_at AS account_suspended_at
     FROM (SELECT 1) AS one LEFT JOIN connectors k ON k.id = @connectorId LEFT JOIN users u ON u.id = k.user_id`;

/**
 * For a guarded statement that returned nothing: reads what the gate reads and throws {@link ClaimRefused}
 * (for `act`) with it, unless the connection is live (then there was simply nothing to claim or read). Call it
 * in the statement's transaction, so it sees the same state.
 */
export function prepareLiveGate(db: SqliteDb): (connectorId: string, act: 'claim' | 'read') => void {
  const facts = db.prepare(GATE_FACTS);
  return (connectorId, act) => {
    const r = facts.get({ connectorId }) as Row;
    if (r.live === 1) return;
    const at = (v: unknown) => (v === null ? null : Number(v));
    throw new ClaimRefused(
      r.connector_id === null ? null : { revokedAt: at(r.revoked_at), suspendedAt: at(r.suspended_at) },
      r.account_id === null ? null : { suspendedAt: at(r.account_suspended_at) },
      act,
    );
  };
}
