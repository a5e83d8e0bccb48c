// OAuth's error shape (RFC 6749 section 5.2, with RFC 7591's and 8707's codes): `{error,
// error_description}`, its codes' statuses, and the one mapping from a service error to it.
import type { ServerResponse } from 'node:http';
import type { ServiceErrorCode } from '@screen-service/registry/kernel';
import { asServiceError } from './error-sources.js';
import { SERVICE_ERROR_STATUS } from './error-table.js';
import { writeRefusal } from './http-errors.js';

/** The `error` values the authorization server sends: the protocol's own codes. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'access_denied'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'temporarily_unavailable'
  | 'server_error';

/** The status each code is answered with when the refusal names none. */
export const OAUTH_ERROR_STATUS: Readonly<Record<OAuthErrorCode, number>> = Object.freeze({
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  unsupported_response_type: 400,
  invalid_scope: 400,
  invalid_target: 400,
  access_denied: 403,
  invalid_redirect_uri: 400,
  invalid_client_metadata: 400,
  temporarily_unavailable: 429,
  server_error: 500,
});

/** RFC 6749's error body. */
export interface OAuthErrorBody {
  error: OAuthErrorCode;
  error_description: string;
}

/** An OAuth refusal ready for the wire. */
export interface OAuthHttpError {
  status: number;
  body: OAuthErrorBody;
}

// RFC 6749 answers a malformed request 400 whatever is wrong with it, and a bad code or refresh token is a
// grant problem (400), though the service's table answers those 401.
const AS_400: Partial<Record<ServiceErrorCode, OAuthErrorCode>> = {
  INVALID_OR_EXPIRED_CODE: 'invalid_grant',
  INVALID_REFRESH_TOKEN: 'invalid_grant',
  UNSUPPORTED_MEDIA_TYPE: 'invalid_request',
};

/** The OAuth code of a status from the service's table. */
function codeOfStatus(status: number): OAuthErrorCode {
  if (status === 401) return 'invalid_client';
  if (status === 403) return 'access_denied';
  if (status === 429 || status === 503 || status === 507) return 'temporarily_unavailable';
  return 'invalid_request';
}

/**
 * Maps any thrown value that is not already an OAuth refusal to RFC 6749's shape: a ServiceError (or a body
 * parser's failure, a full disk) keeps the table's status and takes its code from it: `invalid_client` (401),
 * `access_denied` (403), `temporarily_unavailable` (429, 503 when the database did not answer, 507 for a full disk), else `invalid_request`; a
 * refused code or refresh token is 400 `invalid_grant` and a type not read 400 `invalid_request`. Anything
 * else is 500 `server_error` with a generic description.
 *
 * @example
 * ```ts
 * toOAuthError(new ServiceError('RATE_LIMITED', 'Try again in 3 s.'));
 * // { status: 429, body: { error: 'temporarily_unavailable', error_description: 'Try again in 3 s.' } }
 * ```
 */
export function toOAuthError(err: unknown, options: { bodyLimit?: string } = {}): OAuthHttpError {
  const e = asServiceError(err, options.bodyLimit);
  if (!e) {
    return {
      status: 500,
      body: { error: 'server_error', error_description: 'Something went wrong on our side; try again.' },
    };
  }
  const as400 = AS_400[e.code];
  const status = as400 ? 400 : SERVICE_ERROR_STATUS[e.code];
  return { status, body: { error: as400 ?? codeOfStatus(status), error_description: e.message } };
}

/**
 * Answers `res` with an OAuth refusal: `Cache-Control: no-store` (RFC 6749 section 5.1), `Retry-After` when
 * `err` carries a delay, and on a 401 `challenge` when given (the token endpoint's `Basic` after Basic
 * credentials failed; RFC 6749 section 5.2).
 *
 * @example
 * ```ts
 * sendOAuthError(res, toOAuthError(err), err);
 * ```
 */
export function sendOAuthError(
  res: ServerResponse,
  wire: OAuthHttpError,
  err?: unknown,
  challenge: string | null = null,
): void {
  if (!res.headersSent) res.setHeader('cache-control', 'no-store');
  writeRefusal(res, wire.status, wire.body, err, challenge);
}
