// Who may redeem a code, and when (ADR 0080, 0241): an authorization code traded at /token, and a 6-digit
// pairing code typed on the consent page. Each reads, decides and writes in one Store.transaction.
import { bindApprovedConnection } from '@screen-service/registry/hosts';
import type { ConnectorRecord, OAuthTokenRecord, Store } from '@screen-service/registry/model';

/** An authorization code to redeem into a new connection with its first tokens. */
export interface RedeemCode {
  requestId: string;
  at: number;
  /** The connection to create (kind `mcp`, via `oauth`) for the request's user. */
  connector: ConnectorRecord;
  /** The bound agent's remote_ref on the new connection. */
  remoteRef: string;
  /** The first access and refresh tokens, for `connector`. */
  tokens: OAuthTokenRecord[];
}

/** Why a code could not be redeemed; `ok` when the connection and tokens were written. */
export type RedeemOutcome = 'ok' | 'code_used' | 'code_expired' | 'not_approved' | 'agent_gone';

/** Rolls a transaction back with an outcome the caller answers instead of an error. */
class Outcome<T extends string> extends Error {
  constructor(readonly outcome: T) {
    super(outcome);
  }
}

/**
 * Redeems an authorization code: the request must be approved and finished, its code unused and
 * unexpired, and its agent still the person's. Then, in the same transaction: the connection is made, the
 * code used, the agent bound (ADR 0091) and the first tokens stored. Anything but `ok` writes nothing,
 * except that a code whose agent went is used up. The request's row is read for update: a second
 * redemption waits for the first and finds the code used.
 *
 * @example
 * ```ts
 * const outcome = await redeemAuthorizationCode(store, { requestId, at, connector, remoteRef: 'oauth', tokens });
 * ```
 */
export async function redeemAuthorizationCode(store: Store, p: RedeemCode): Promise<RedeemOutcome> {
  try {
    return await store.transaction(async (tx): Promise<RedeemOutcome> => {
      const req = await tx.oauth.getRequest(p.requestId, { forUpdate: true });
      if (req?.status !== 'approved' || req.userId === null || req.finishedAt === null) {
        return 'not_approved';
      }
      if (req.codeUsedAt !== null) return 'code_used';
      if (req.codeExpiresAt === null || req.codeExpiresAt <= p.at) return 'code_expired';
      const agent = req.agentId ? await tx.agents.get(req.agentId, { forUpdate: true }) : null;
      if (!agent || agent.userId !== req.userId) {
        // The code is used up all the same: it can never be traded for another agent.
        await tx.oauth.useCode(req.id, p.at, null);
        return 'agent_gone';
      }
      await tx.connectors.create(p.connector);
      // Under the request's lock the code is unused; the claim stays conditional all the same.
      if (!(await tx.oauth.useCode(req.id, p.at, p.connector.id))) throw new Outcome('code_used');
      await bindApprovedConnection(tx, agent, p.connector.id, p.remoteRef, p.at);
      await tx.oauth.addTokens(p.tokens);
      return 'ok';
    });
  } catch (err) {
    if (err instanceof Outcome) return err.outcome as RedeemOutcome;
    throw err;
  }
}

/**
 * Approves a pending sign-in as the agent whose 6-digit pairing code was typed (the code already checked
 * unexpired by `redeemCode`): the code is claimed and the request decided together. `code_taken` when the
 * code was claimed meanwhile; `not_pending` when the request was decided or expired meanwhile, and then the
 * code's claim is rolled back, so the code still works elsewhere.
 */
export async function approveWithPairingCode(
  store: Store,
  requestId: string,
  p: { codeId: string; userId: string; agentId: string; at: number },
): Promise<'ok' | 'code_taken' | 'not_pending'> {
  try {
    return await store.transaction(async (tx) => {
      if (!(await tx.pairing.claim(p.codeId, { at: p.at, connectorId: null }))) return 'code_taken';
      const decided = await tx.oauth.decide(requestId, {
        status: 'approved',
        userId: p.userId,
        agentId: p.agentId,
        at: p.at,
      });
      if (!decided) throw new Outcome('not_pending');
      return 'ok';
    });
  } catch (err) {
    if (err instanceof Outcome) return err.outcome as 'not_pending';
    throw err;
  }
}
