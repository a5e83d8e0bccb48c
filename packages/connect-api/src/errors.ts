// Wire errors of the host API (doc2 "Errors"): `{"error":"<code>"}` bodies with these statuses.
import { ServiceError } from '@screen-service/service-core';

/** Codes this API answers with. */
export type ConnectErrorCode =
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'connector_not_found'
  | 'connector_revoked'
  | 'invalid_or_expired_code'
  | 'profile_already_added'
  | 'too_many_attempts'
  | 'invalid_action'
  | 'invalid_body'
  | `invalid_${string}`
  | 'internal_error';

export interface WireError {
  status: number;
  body: { error: ConnectErrorCode; message: string };
}

/**
 * Maps an error from the rules to doc2's status and code. `INVALID_INPUT` on field `code` becomes
 * `invalid_code` (400), and so on for each field.
 *
 * @example
 * ```ts
 * toWireError(new ServiceError('TOO_MANY_ATTEMPTS', '...')); // { status: 429, body: { error: 'too_many_attempts', ... } }
 * ```
 */
export function toWireError(err: unknown): WireError {
  if (!(err instanceof ServiceError)) {
    return { status: 500, body: { error: 'internal_error', message: 'Something went wrong on our side.' } };
  }
  const wire = (status: number, error: ConnectErrorCode) => ({
    status,
    body: { error, message: err.message },
  });
  switch (err.code) {
    case 'INVALID_OR_EXPIRED_CODE':
      return wire(401, 'invalid_or_expired_code');
    case 'PROFILE_ALREADY_ADDED':
      return wire(409, 'profile_already_added');
    case 'TOO_MANY_ATTEMPTS':
      return wire(429, 'too_many_attempts');
    case 'UNAUTHORIZED':
      return wire(401, 'unauthorized');
    case 'CONNECTOR_REVOKED':
      return wire(409, 'connector_revoked');
    case 'FORBIDDEN':
    case 'SUSPENDED':
    case 'NOT_AN_MCP_CONNECTOR':
      return wire(403, 'forbidden');
    case 'CONNECTOR_NOT_FOUND':
      return wire(404, 'connector_not_found');
    case 'NOT_FOUND':
    case 'AGENT_NOT_FOUND':
      return wire(404, 'not_found');
    case 'INVALID_INPUT':
      return wire(400, `invalid_${(err.field ?? 'body').replace(/[^a-z0-9_]/gi, '_')}`);
    default:
      return wire(400, 'invalid_body');
  }
}
