// The one JSON body reader of every HTTP adapter (ADR 0242): read from the node request, limited, depth
// checked before parsing, strict; whatever it does not read it refuses with a ServiceError saying what to send.
import type { IncomingMessage } from 'node:http';
import { ServiceError } from '@screen-service/registry/kernel';
import { jsonDepth, MAX_JSON_DEPTH } from './json-depth.js';

/** Options of {@link readJsonBody} and {@link jsonBody}. */
export interface JsonBodyOptions {
  /** The largest body in bytes; a longer one is refused with `BODY_TOO_LARGE` (413). */
  limit: number;
  /** The deepest nesting of arrays and objects; default {@link MAX_JSON_DEPTH}. */
  maxDepth?: number;
}

// `application/json` with at most a charset parameter (any case, spaces, the value quoted or not).
const MEDIA_TYPE = /^\s*([^;\s]+)\s*(?:;(.*))?$/;
const CHARSET = /(?:^|;)\s*charset\s*=\s*"?([^";\s]*)"?\s*(?:;|$)/i;

/** The first character after JSON whitespace (space, tab, line feed, carriage return); '' when none. */
function firstNonBlank(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return text.charAt(i);
  }
  return '';
}

const unreadable = () =>
  new ServiceError('INVALID_INPUT', 'The body could not be read to its end: send it again.', {
    field: 'body',
  });

function kilobytes(limit: number): string {
  return limit >= 1024 * 1024 && limit % (1024 * 1024) === 0
    ? `${limit / 1024 / 1024} MB`
    : `${Math.round(limit / 1024)} KB`;
}

function isJsonType(req: IncomingMessage): boolean {
  return MEDIA_TYPE.exec(req.headers['content-type'] ?? '')?.[1]?.toLowerCase() === 'application/json';
}

/** The refusal, if any, of the request's headers: type, charset, encoding, a stated length past the limit. */
function refuseHeaders(req: IncomingMessage, limit: number, length: number | null): ServiceError | null {
  const encoding = req.headers['content-encoding']?.trim().toLowerCase();
  if (encoding && encoding !== 'identity') {
    return new ServiceError(
      'UNSUPPORTED_MEDIA_TYPE',
      `Send the body uncompressed: this service does not read Content-Encoding ${encoding}.`,
      { field: 'body' },
    );
  }
  if (!isJsonType(req)) {
    return new ServiceError(
      'UNSUPPORTED_MEDIA_TYPE',
      'Send the body as JSON, with Content-Type: application/json.',
      {
        field: 'body',
      },
    );
  }
  const params = MEDIA_TYPE.exec(req.headers['content-type'] ?? '')?.[2] ?? '';
  const charset = CHARSET.exec(params)?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    return new ServiceError(
      'UNSUPPORTED_MEDIA_TYPE',
      `Send the body as UTF-8 (charset ${charset} is not read): Content-Type: application/json; charset=utf-8.`,
      { field: 'body' },
    );
  }
  if (length !== null && length > limit) return tooLarge(limit);
  return null;
}

const tooLarge = (limit: number) =>
  new ServiceError('BODY_TOO_LARGE', `The body is larger than ${kilobytes(limit)}: send less.`, {
    field: 'body',
  });

/** Parses the bytes of a body the headers allowed: depth first, then strict JSON. */
function parse(bytes: Buffer, maxDepth: number): unknown {
  if (jsonDepth(bytes, maxDepth) > maxDepth) {
    throw new ServiceError(
      'INVALID_JSON',
      `The body nests deeper than ${maxDepth} levels: send a flatter value.`,
      { field: 'body' },
    );
  }
  // UTF-8 without its byte-order mark; nothing left reads as {} (as Express's parser did).
  let text = bytes.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.length === 0) return {};
  const first = firstNonBlank(text);
  if (first !== '{' && first !== '[') {
    throw new ServiceError('INVALID_JSON', 'The body must be a JSON object (or array): send one.', {
      field: 'body',
    });
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ServiceError('INVALID_JSON', 'The body is not valid JSON: send one JSON object.', {
      field: 'body',
    });
  }
}

/**
 * Reads a request's JSON body. A request without a body (no `Content-Length`, no `Transfer-Encoding`, or a
 * length of 0 without a JSON type) gives `undefined`; an empty JSON body gives `{}`. Refusals are
 * ServiceErrors: `UNSUPPORTED_MEDIA_TYPE` (415) for another type, a charset other than UTF-8 or a
 * compressed body; `BODY_TOO_LARGE` (413) past `limit` (stated or counted; the rest is discarded unread);
 * `INVALID_JSON` (400) for bad JSON, a scalar (strict: an object or an array) or nesting past `maxDepth`;
 * `INVALID_INPUT` (400) for a body that ends early or is aborted.
 *
 * @example
 * ```ts
 * const body = await readJsonBody(req, { limit: 64 * 1024 });
 * ```
 */
export function readJsonBody(req: IncomingMessage, options: JsonBodyOptions): Promise<unknown> {
  const { limit } = options;
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  const chunked = req.headers['transfer-encoding'] !== undefined;
  const stated = req.headers['content-length'];
  const length = stated === undefined || chunked ? null : Number(stated);
  if (!chunked && length === null) return Promise.resolve(undefined);
  // Nothing sent: nothing to refuse. A JSON type makes it {} (as Express's parser did), anything else no body.
  if (length === 0) return Promise.resolve(isJsonType(req) ? {} : undefined);
  const refused = refuseHeaders(req, limit, length);
  if (refused) {
    req.resume(); // discard what was sent; the refusal answers without it
    return Promise.reject(refused);
  }
  if (req.readableEnded) return Promise.reject(unreadable());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const done = (err: ServiceError | null, value?: unknown) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onFail);
      req.off('aborted', onFail);
      req.off('close', onClose);
      if (err) reject(err);
      else resolve(value);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) {
        done(tooLarge(limit));
        req.resume();
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      if (length !== null && received !== length) return done(unreadable());
      try {
        done(null, parse(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received), maxDepth));
      } catch (err) {
        done(err as ServiceError);
      }
    };
    const onFail = () => done(unreadable());
    const onClose = () => {
      if (!req.complete) done(unreadable());
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onFail);
    req.on('aborted', onFail);
    req.on('close', onClose);
  });
}

/**
 * {@link readJsonBody} as middleware (Express, or anything calling `(req, res, next)`): sets `req.body`,
 * or passes the refusal to `next(err)` for the router's error handler.
 *
 * @example
 * ```ts
 * router.post('/turn', jsonBody({ limit: 64 * 1024 }), handler);
 * ```
 */
export function jsonBody(
  options: JsonBodyOptions,
): (req: IncomingMessage, res: unknown, next: (err?: unknown) => void) => void {
  return (req, _res, next) => {
    readJsonBody(req, options).then(
      (body) => {
        (req as IncomingMessage & { body?: unknown }).body = body;
        next();
      },
      (err: unknown) => next(err),
    );
  };
}
