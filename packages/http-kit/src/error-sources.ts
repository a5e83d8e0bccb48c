// What else stands for a ServiceError on the wire: a body parser's refusal (Express's raw and form parsers)
// and a full disk. Every shape maps these the same way.
import { ServiceError } from '@screen-service/registry/kernel';

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

/** The message a caller gets when the database did not answer (PostgreSQL restarting, a dropped connection). */
export const STORAGE_UNAVAILABLE_MESSAGE =
  'The database did not answer, so nothing was saved: send it again in a few seconds.';

/** node-postgres's own words when a connection ends or cannot be had (its socket errors carry no code). */
const LOST_CONNECTION =
  /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Connection terminated due to connection timeout)/;

/**
 * Turns a full disk (SQLite's `SQLITE_FULL`, a file write's `ENOSPC`) into a `STORAGE_FULL` ServiceError,
 * and a database that did not answer (PostgreSQL shutting down or restarting: SQLSTATE 57P01-57P03, class 08;
 * its socket refused or reset; node-postgres's "Connection terminated") into `STORAGE_UNAVAILABLE`; null for
 * anything else.
 *
 * @example
 * ```ts
 * fromStorageError(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })); // STORAGE_FULL
 * fromStorageError(Object.assign(new Error('the database system is starting up'), { code: '57P03' })); // STORAGE_UNAVAILABLE
 * ```
 */
export function fromStorageError(err: unknown): ServiceError | null {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'SQLITE_FULL' || code === 'ENOSPC')
    return new ServiceError('STORAGE_FULL', STORAGE_FULL_MESSAGE);
  const message = (err as { message?: unknown } | null)?.message;
  const unavailable =
    (typeof code === 'string' && (/^57P0[123]$/.test(code) || /^08[0-9A-Z]{3}$/.test(code))) ||
    code === 'ECONNREFUSED' ||
    code === 'ECONNRESET' ||
    (typeof message === 'string' && LOST_CONNECTION.test(message));
  return unavailable ? new ServiceError('STORAGE_UNAVAILABLE', STORAGE_UNAVAILABLE_MESSAGE) : null;
}

/**
 * Turns a router's failure to decode a path parameter (Express: a `URIError` with status 400, for an address
 * such as `/agents/%E0`) into `INVALID_INPUT`, or returns null for anything else.
 *
 * @example
 * ```ts
 * fromUrlError(Object.assign(new URIError("Failed to decode param '%E0'"), { status: 400 }))?.code; // 'INVALID_INPUT'
 * ```
 */
export function fromUrlError(err: unknown): ServiceError | null {
  const status = (err as { status?: unknown } | null)?.status;
  return err instanceof URIError && status === 400
    ? new ServiceError(
        'INVALID_INPUT',
        'The address holds a malformed %-escape: percent-encode it as UTF-8.',
        {
          field: 'path',
        },
      )
    : null;
}

/**
 * The ServiceError a thrown value stands for: itself, a body parser's failure ({@link fromBodyParserError},
 * naming `bodyLimit`), a full disk ({@link fromStorageError}), an undecodable address ({@link fromUrlError});
 * null for anything else (an internal error).
 *
 * @example
 * ```ts
 * asServiceError(Object.assign(new Error('full'), { code: 'ENOSPC' }))?.code; // 'STORAGE_FULL'
 * ```
 */
export function asServiceError(err: unknown, bodyLimit = 'the limit'): ServiceError | null {
  if (err instanceof ServiceError) return err;
  return fromBodyParserError(err, bodyLimit) ?? fromStorageError(err) ?? fromUrlError(err);
}
