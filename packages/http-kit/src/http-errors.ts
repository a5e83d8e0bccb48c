// The `{error, message, field?, details?}` shape of our JSON APIs (the person's, host and management APIs,
// the tables call, the Host guard): one mapping from a thrown value, one writer of the answer.
import type { ServerResponse } from 'node:http';
import type { ServiceErrorCode } from '@screen-service/registry/kernel';
import { asServiceError } from './error-sources.js';
import { type AnyWireCode, type ErrorSpelling, SERVICE_ERROR_STATUS, spellCode } from './error-table.js';

/** The body every JSON API of ours answers a refusal with (OAuth and the tool server have their own). */
export interface HttpErrorBody {
  /** Stable lower-snake code, e.g. `invalid_input`, `connector_revoked` (as the API's spelling writes it). */
  error: AnyWireCode;
  /** What is wrong and what to do about it. */
  message: string;
  /** The offending input, when there is one. */
  field?: string;
  /** What the rule found, as data: the parser's diagnostics of refused Screen Lines, a retry delay, ... */
  details?: unknown;
}

/** A refusal ready for the wire. `code` is null for an unexpected error (answered 500 `internal_error`). */
export interface HttpError {
  status: number;
  code: ServiceErrorCode | null;
  body: HttpErrorBody;
}

/** Options of {@link toHttpError} and {@link sendHttpError}. */
export interface HttpErrorOptions {
  /** The limit a body parser's `entity.too.large` names (Express's raw and form parsers), e.g. `'10 MB'`. */
  bodyLimit?: string;
  /** How the API spells codes; default `service`. */
  spelling?: ErrorSpelling;
}

const INTERNAL: HttpError = Object.freeze({
  status: 500,
  code: null,
  body: Object.freeze({ error: 'internal_error', message: 'Something went wrong on our side.' }),
});

/**
 * Maps any thrown value to the `{error, message, field?, details?}` shape: a ServiceError by the table
 * (spelled as `options.spelling` says), a body parser's failure or a full disk as theirs, anything else a
 * 500 with a generic message (log it; never send it).
 *
 * @example
 * ```ts
 * toHttpError(new ServiceError('AGENT_NOT_FOUND', 'No agent a_1.'));
 * // { status: 404, code: 'AGENT_NOT_FOUND', body: { error: 'agent_not_found', message: 'No agent a_1.' } }
 * toHttpError(new ServiceError('INVALID_INPUT', 'too long', { field: 'name' }), { spelling: 'host' }).body.error;
 * // 'invalid_name'
 * ```
 */
export function toHttpError(err: unknown, options: HttpErrorOptions = {}): HttpError {
  const e = asServiceError(err, options.bodyLimit);
  if (!e) return INTERNAL;
  const body: HttpErrorBody = { error: spellCode(e, options.spelling ?? 'service'), message: e.message };
  if (e.field !== undefined) body.field = e.field;
  if (e.details !== undefined) body.details = e.details;
  return { status: SERVICE_ERROR_STATUS[e.code], code: e.code, body };
}

/**
 * The seconds a refusal asks the caller to wait (`details.retryAfterS` of a rate limit), if any.
 *
 * @example
 * ```ts
 * retryAfterOf(new ServiceError('RATE_LIMITED', 'slow down', { details: { retryAfterS: 2.2 } })); // 3
 * ```
 */
export function retryAfterOf(err: unknown): number | undefined {
  const after = (err as { details?: { retryAfterS?: unknown } } | null)?.details?.retryAfterS;
  return typeof after === 'number' && after > 0 ? Math.ceil(after) : undefined;
}

/**
 * Writes a JSON answer with its status, type and length.
 *
 * @example
 * ```ts
 * writeJson(res, 409, { error: 'conflict', message: 'Taken.' });
 * ```
 */
export function writeJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', Buffer.byteLength(text));
  res.end(text);
}

/** `Retry-After` of a 429 whose error carries no delay of its own (seconds). */
export const DEFAULT_RETRY_AFTER_S = 10;

/**
 * Writes a refusal of any shape: `Retry-After` when the error carries a delay, and on a 401 the challenge
 * `challenge` (when the caller has not set one and `challenge` is not null; RFC 9110 asks for one). A
 * response already begun cannot be answered twice, so it is cut instead.
 *
 * @example
 * ```ts
 * writeRefusal(res, 401, { error: 'unauthorized', message: 'Sign in.' }, err);
 * ```
 */
export function writeRefusal(
  res: ServerResponse,
  status: number,
  body: unknown,
  err: unknown,
  challenge: string | null = 'Bearer',
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (status === 401 && challenge !== null && !res.hasHeader('www-authenticate')) {
    res.setHeader('www-authenticate', challenge);
  }
  // Every 429 says when to come back (issue 46): the error's own delay, else a default for caps that
  // free up when something closes (streams, subscriptions) rather than on a clock.
  const after = retryAfterOf(err) ?? (status === 429 ? DEFAULT_RETRY_AFTER_S : undefined);
  if (after !== undefined && !res.hasHeader('retry-after')) res.setHeader('retry-after', String(after));
  writeJson(res, status, body);
}

/**
 * Answers `res` with {@link toHttpError}'s status and body (plus `WWW-Authenticate: Bearer` on a 401 and
 * `Retry-After` on a rate limit). Returns the mapped error: log the thrown value when its status is 500 or more.
 *
 * @example
 * ```ts
 * } catch (err) {
 *   if (sendHttpError(res, err, { spelling: 'management' }).status >= 500) log(err);
 * }
 * ```
 */
export function sendHttpError(res: ServerResponse, err: unknown, options: HttpErrorOptions = {}): HttpError {
  const wire = toHttpError(err, options);
  writeRefusal(res, wire.status, wire.body, err);
  return wire;
}
