// The one error table of the service's wires (ADRs 0095, 0242): every ServiceErrorCode has one HTTP status
// and one lower-snake wire code, spelled as each API's contract says. Each protocol's shape is built on it.
import type { ServiceError, ServiceErrorCode } from '@screen-service/registry/kernel';

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
  // The database did not answer (PostgreSQL restarting, its connection dropped): nothing was saved; the same
  // call works again in a few seconds (ADR 0286).
  STORAGE_UNAVAILABLE: 503,
});

/** Every code, in the table's order (for tests that loop over all of them). */
export const SERVICE_ERROR_CODES = Object.freeze(Object.keys(SERVICE_ERROR_STATUS) as ServiceErrorCode[]);

/** The wire spelling of every code: lower snake case, and `internal_error` for our own failures. */
export type WireCode = Lowercase<ServiceErrorCode> | 'internal_error';

/**
 * How an API spells codes on its wire: `service` (the code's own spelling: every API but doc2's two), `host`
 * (doc2's host API: bad input is `invalid_<field>`, and a few codes take doc2's names) and `management`
 * (doc2's management API: the host API's spellings, and `already_added` for a profile already registered).
 */
export type ErrorSpelling = 'service' | 'host' | 'management';

/** The codes doc2 names its own way on the host and management APIs (the status is still the table's). */
export const DOC2_CODE_ALIASES = Object.freeze({
  SUSPENDED: 'forbidden',
  NOT_AN_MCP_CONNECTOR: 'forbidden',
  AGENT_NOT_FOUND: 'not_found',
  INVALID_CREDENTIALS: 'unauthorized',
} as const satisfies Partial<Record<ServiceErrorCode, WireCode>>);

/**
 * The management API's spellings: doc2's, and `already_added` ("profile already registered") where the host
 * API's `pair` says `profile_already_added`.
 */
export const MANAGEMENT_CODE_ALIASES = Object.freeze({
  ...DOC2_CODE_ALIASES,
  PROFILE_ALREADY_ADDED: 'already_added',
} as const);

type Doc2Renamed = Lowercase<keyof typeof DOC2_CODE_ALIASES> | 'invalid_input';

/**
 * Every code the host API sends: the wire codes less those doc2 renames, doc2's names, and doc2's family
 * `invalid_<field>` for bad input (the field is the input's name: `invalid_commands`, `invalid_code`, ...).
 */
export type HostWireCode =
  | Exclude<WireCode, Doc2Renamed>
  | (typeof DOC2_CODE_ALIASES)[keyof typeof DOC2_CODE_ALIASES]
  | `invalid_${string}`;

/** Every code the management API sends: the host API's, with `already_added` for `profile_already_added`. */
export type ManagementWireCode = Exclude<HostWireCode, 'profile_already_added'> | 'already_added';

/** A code as any of our JSON APIs writes it. */
export type AnyWireCode = WireCode | HostWireCode | ManagementWireCode;

/**
 * The wire form of a code: lower snake case (`CONNECTOR_REVOKED` → `connector_revoked`).
 *
 * @example
 * ```ts
 * wireCode('TOO_MANY_ATTEMPTS'); // 'too_many_attempts'
 * ```
 */
export function wireCode<C extends ServiceErrorCode>(code: C): Lowercase<C> {
  return code.toLowerCase() as Lowercase<C>;
}

/**
 * A refusal's code as `spelling` writes it (see {@link ErrorSpelling}).
 *
 * @example
 * ```ts
 * spellCode(new ServiceError('INVALID_INPUT', 'bad', { field: 'commands' }), 'host'); // 'invalid_commands'
 * spellCode(new ServiceError('AGENT_NOT_FOUND', 'gone'), 'management'); // 'not_found'
 * ```
 */
export function spellCode(e: ServiceError, spelling: ErrorSpelling): AnyWireCode {
  if (spelling === 'service') return wireCode(e.code);
  if (e.code === 'INVALID_INPUT') return `invalid_${(e.field ?? 'body').replace(/[^a-z0-9_]/gi, '_')}`;
  const aliases: Partial<Record<ServiceErrorCode, AnyWireCode>> =
    spelling === 'management' ? MANAGEMENT_CODE_ALIASES : DOC2_CODE_ALIASES;
  return aliases[e.code] ?? wireCode(e.code);
}
