// The one error contract of the service's HTTP surfaces (ADR 0095): every ServiceErrorCode has one HTTP
// status, one lower-snake wire code and one body shape; adapters only choose how to wrap the body.
import { ServiceError, type ServiceErrorCode } from '@screen-service/registry/kernel';

/**
 * The HTTP status of every code. The person's API, the host and management APIs and the tool server all
 * read this table; a code added to `ServiceErrorCode` does not compile until it has a row here.
 */
export const SERVICE_ERROR_STATUS: Readonly<Record<ServiceErrorCode, number>> = Object.freeze({
  INVALID_INPUT: 400,
  INVALID_LINES: 400,
  NOT_ON_SCREEN: 400,
  INVALID_JSON: 400,
  NOT_IN_A_SHARED_THREAD: 400,
  UNAUTHORIZED: 401,
  INVALID_CREDENTIALS: 401,
  INVALID_REFRESH_TOKEN: 401,
  INVALID_OR_EXPIRED_CODE: 401,
  FORBIDDEN: 403,
  SUSPENDED: 403,
  NOT_AN_MCP_CONNECTOR: 403,
  // doc2 shared agents: a holder may not rename, restyle, pair, delete or set default; a row on an agent
  // neither owned nor held by a live grant.
  SHARED_AGENT: 403,
  AGENT_NOT_YOURS: 403,
  HOST_NOT_ALLOWED: 403,
  SIGNUP_CLOSED: 403,
  NOT_FOUND: 404,
  AGENT_NOT_FOUND: 404,
  SCREEN_NOT_FOUND: 404,
  CONNECTOR_NOT_FOUND: 404,
  NO_AGENT: 404,
  OAUTH_REQUEST_NOT_FOUND: 404,
  TABLE_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  NOT_ACCEPTABLE: 406,
  EMAIL_TAKEN: 409,
  HANDLE_TAKEN: 409,
  CONFLICT: 409,
  CONNECTOR_REVOKED: 409,
  PROFILE_ALREADY_ADDED: 409,
  OAUTH_REQUEST_DECIDED: 409,
  TABLE_NAME_TAKEN: 409,
  // A grant or template item for an agent that is not client-safe (the CLI's exit code 3 names the rule).
  NOT_CLIENT_SAFE: 409,
  OAUTH_REQUEST_EXPIRED: 410,
  BODY_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  // A call past one of doc3's limits (lines per call, tables per agent on a hand-over): well-formed, refused.
  LIMIT_EXCEEDED: 422,
  TOO_MANY_ATTEMPTS: 429,
  RATE_LIMITED: 429,
  // The data folder's disk is full (SQLITE_FULL, ENOSPC): nothing was saved; the same call works once the
  // operator frees space (RFC 4918 Insufficient Storage; ADR 0211).
  STORAGE_FULL: 507,
});

/** Every code, in the table's order (for tests that loop over all of them). */
export const SERVICE_ERROR_CODES = Object.freeze(Object.keys(SERVICE_ERROR_STATUS) as ServiceErrorCode[]);

/** The body every JSON API of ours answers a refusal with (OAuth endpoints keep RFC 6749's shape). */
export interface HttpErrorBody {
  /** Stable lower-snake code, e.g. `invalid_input`, `connector_revoked`. */
  error: string;
  /** What is wrong and what to do about it. */
  message: string;
  /** The offending input, when there is one. */
  field?: string;
}

/** A refusal ready for the wire. `code` is `internal_error`'s stand-in `null` for unexpected errors. */
export interface HttpError {
  status: number;
  code: ServiceErrorCode | null;
  body: HttpErrorBody;
}

/**
 * The wire form of a code: lower snake case (`CONNECTOR_REVOKED` → `connector_revoked`).
 *
 * @example
 * ```ts
 * wireCode('TOO_MANY_ATTEMPTS'); // 'too_many_attempts'
 * ```
 */
export function wireCode(code: ServiceErrorCode): string {
  return code.toLowerCase();
}

const INTERNAL: HttpError = Object.freeze({
  status: 500,
  code: null,
  body: { error: 'internal_error', message: 'Something went wrong on our side.' },
});

/**
 * Turns a body parser's failure (Express `express.json()`/`express.raw()`: `entity.parse.failed`,
 * `entity.too.large`, ...) into the matching ServiceError, or returns null for anything else.
 *
 * @example
 * ```ts
 * router.use((err, req, res, next) => { const e = fromBodyParserError(err, '256 KB'); ... });
 * ```
 */
export function fromBodyParserError(err: unknown, limitText: string): ServiceError | null {
  const type = (err as { type?: unknown } | null)?.type;
  if (typeof type !== 'string') return null;
  switch (type) {
    case 'entity.parse.failed':
      return new ServiceError('INVALID_JSON', 'The body is not valid JSON: send one JSON object.', {
        field: 'body',
      });
    case 'entity.too.deep':
      return new ServiceError(
        'INVALID_JSON',
        `The body nests deeper than ${(err as { maxDepth?: number }).maxDepth ?? 'the allowed'} levels: send a flatter value.`,
        { field: 'body' },
      );
    case 'entity.too.large':
      return new ServiceError('BODY_TOO_LARGE', `The body is larger than ${limitText}: send less.`, {
        field: 'body',
      });
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ServiceError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as UTF-8.', { field: 'body' });
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
    case 'stream.not.readable':
      return new ServiceError('INVALID_INPUT', 'The body could not be read: send it again.', {
        field: 'body',
      });
    default:
      return null;
  }
}

/** The message a caller gets when the disk under the data folder is full. */
export const STORAGE_FULL_MESSAGE =
  "The service's disk is full, so nothing was saved: send it again later (the operator must free space in the data folder).";

/**
 * Turns a full disk (SQLite's `SQLITE_FULL`, a file write's `ENOSPC`) into a `STORAGE_FULL` ServiceError,
 * or returns null for anything else.
 *
 * @example
 * ```ts
 * fromStorageError(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })); // STORAGE_FULL
 * ```
 */
export function fromStorageError(err: unknown): ServiceError | null {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_FULL' || code === 'ENOSPC'
    ? new ServiceError('STORAGE_FULL', STORAGE_FULL_MESSAGE)
    : null;
}

/**
 * Maps any thrown value to the wire: a ServiceError by the table, a body parser's failure by
 * {@link fromBodyParserError}, a full disk by {@link fromStorageError}, anything else a 500 with a generic message (log it; never send it).
 *
 * @example
 * ```ts
 * const e = toHttpError(new ServiceError('AGENT_NOT_FOUND', 'No agent a_1.'));
 * // { status: 404, code: 'AGENT_NOT_FOUND', body: { error: 'agent_not_found', message: 'No agent a_1.' } }
 * ```
 */
export function toHttpError(err: unknown, options: { bodyLimit?: string } = {}): HttpError {
  const e =
    err instanceof ServiceError
      ? err
      : (fromBodyParserError(err, options.bodyLimit ?? 'the limit') ?? fromStorageError(err));
  if (!e) return INTERNAL;
  const body: HttpErrorBody = { error: wireCode(e.code), message: e.message };
  if (e.field !== undefined) body.field = e.field;
  return { status: SERVICE_ERROR_STATUS[e.code], code: e.code, body };
}
