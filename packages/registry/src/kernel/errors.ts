// Stable error codes of the service's rules. Adapters map them to HTTP statuses, JSON-RPC errors or exit codes.

/** Every code a rule can raise. Never renamed once shipped; new ones are appended. */
export type ServiceErrorCode =
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'SUSPENDED'
  | 'CONNECTOR_REVOKED'
  | 'NOT_AN_MCP_CONNECTOR'
  | 'NOT_FOUND'
  | 'AGENT_NOT_FOUND'
  | 'SCREEN_NOT_FOUND'
  | 'CONNECTOR_NOT_FOUND'
  | 'NO_AGENT'
  | 'INVALID_INPUT'
  | 'INVALID_LINES'
  | 'NOT_ON_SCREEN'
  | 'INVALID_OR_EXPIRED_CODE'
  | 'PROFILE_ALREADY_ADDED'
  | 'TOO_MANY_ATTEMPTS'
  | 'EMAIL_TAKEN'
  | 'INVALID_CREDENTIALS'
  | 'INVALID_REFRESH_TOKEN'
  | 'HANDLE_TAKEN'
  | 'CONFLICT'
  | 'OAUTH_REQUEST_NOT_FOUND'
  | 'OAUTH_REQUEST_DECIDED'
  | 'OAUTH_REQUEST_EXPIRED'
  | 'INVALID_JSON'
  | 'BODY_TOO_LARGE'
  | 'METHOD_NOT_ALLOWED'
  | 'NOT_ACCEPTABLE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'HOST_NOT_ALLOWED'
  | 'RATE_LIMITED'
  | 'TABLE_NOT_FOUND'
  | 'TABLE_NAME_TAKEN'
  | 'LIMIT_EXCEEDED'
  | 'SHARED_AGENT'
  | 'AGENT_NOT_YOURS'
  | 'NOT_IN_A_SHARED_THREAD'
  | 'NOT_CLIENT_SAFE'
  | 'SIGNUP_CLOSED'
  | 'STORAGE_FULL'
  | 'STORAGE_UNAVAILABLE';

/**
 * The one error class the rules throw. `code` is stable; `message` says what is wrong and how to fix it;
 * `field` names the offending input when there is one.
 *
 * @example
 * ```ts
 * try { await ops.show(principal, { lines: 'nonsense' }); }
 * catch (e) { if (e instanceof ServiceError && e.code === 'INVALID_LINES') console.log(e.message); }
 * ```
 */
export class ServiceError extends Error {
  readonly code: ServiceErrorCode;
  readonly field: string | undefined;
  readonly details: unknown;
  constructor(code: ServiceErrorCode, message: string, options: { field?: string; details?: unknown } = {}) {
    super(message);
    this.name = 'ServiceError';
    this.code = code;
    this.field = options.field;
    this.details = options.details;
  }
}

/** True when `err` is a ServiceError, optionally with the given code. */
export function isServiceError(err: unknown, code?: ServiceErrorCode): err is ServiceError {
  return err instanceof ServiceError && (code === undefined || err.code === code);
}
