// Whether a connection may still take or see the person's answers: the guarded claim (ADR 0298) and the
// guarded read (ADR 0301) answer a refusal with the errors a connection that is not live gets.
import { type ConnectionState, connectionState } from '@screen-service/registry/hosts';
import { ServiceError } from '@screen-service/registry/kernel';
import { ClaimRefused } from '@screen-service/registry/model';

/**
 * The error a connection in `state` gets when it asks for answers: `CONNECTOR_REVOKED` when it was removed
 * (or is gone), `SUSPENDED` when it or its account is suspended (or the account is gone); null when live.
 */
function notLiveError(state: ConnectionState): ServiceError | null {
  if (state === 'live') return null;
  if (state === 'revoked' || state === 'missing') {
    return new ServiceError('CONNECTOR_REVOKED', 'This connection was removed in the app while it waited.');
  }
  return new ServiceError('SUSPENDED', 'This connection or account is suspended.');
}

/**
 * Runs a guarded claim (`claimAnswers` with a `guard`, ADR 0298) or guarded read (`pendingForHost` with a
 * `guard`, ADR 0301) and answers its refusal (`CONNECTOR_REVOKED` or `SUSPENDED`): the store's
 * {@link ClaimRefused} carries what the statement read, judged by `connectionState`.
 *
 * @example
 * ```ts
 * const rows = await whileLive(() => store.threads.claimAnswers({ ...key, guard: { connectorId } }));
 * ```
 */
export async function whileLive<T>(act: () => Promise<T>): Promise<T> {
  try {
    return await act();
  } catch (err) {
    if (!(err instanceof ClaimRefused)) throw err;
    // A refusal whose facts read live would mean the store's gate and connectionState disagree: the
    // refusal stands (nothing was claimed or read) and is reported as what it is.
    throw notLiveError(connectionState(err.connector, err.account)) ?? err;
  }
}
