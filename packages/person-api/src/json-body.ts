// The JSON body reader of the API's routes: the common request (a UTF-8 JSON body of a stated length, not
// compressed) read in a few steps; every other request goes to Express's own parser, unchanged.
import type { RequestHandler } from 'express';

/** How a body is checked before it is parsed (the `verify` option of `express.json()`). */
export type VerifyBody = (req: unknown, res: unknown, buf: Buffer) => void;

/** A body-parser-shaped failure: the router maps errors by `type` (`fromBodyParserError`). */
class BodyReadError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
    this.name = 'BodyReadError';
  }
}

// `application/json`, alone or with a UTF-8 charset (any case, spaces around `;` and `=`).
const PLAIN_JSON = /^application\/json\s*(?:;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;
/** The first character after JSON whitespace (space, tab, line feed, carriage return); '' when none. */
function firstNonBlank(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return text.charAt(i);
  }
  return '';
}

/**
 * A JSON body parser with the same results as `fallback` (`express.json({ limit, verify })`, strict): the
 * same `req.body`, and the same failures by `type` and status (`entity.parse.failed` 400, `entity.too.deep`
 * from `verify`, `request.size.invalid` 400, `request.aborted` 400). It reads only a request with a
 * `Content-Length` from 1 to `limit`, `Content-Type: application/json` (charset absent or UTF-8) and no
 * `Content-Encoding` or `Transfer-Encoding`; anything else (an empty, oversized, compressed, chunked or
 * other-charset body, another type) is handed to `fallback` as it came.
 *
 * @example
 * ```ts
 * const json = fastJsonBody({ limit: 262_144, verify: verifyJsonDepth(), fallback: express.json({ limit: '256kb', verify }) });
 * router.post('/agents/:agentId/taps', json, handler);
 * ```
 */
export function fastJsonBody(options: {
  limit: number;
  verify: VerifyBody;
  fallback: RequestHandler;
}): RequestHandler {
  const { limit, verify, fallback } = options;
  return (req, res, next) => {
    const h = req.headers;
    const length = Number(h['content-length']);
    const type = h['content-type'];
    if (
      h['transfer-encoding'] !== undefined ||
      h['content-encoding'] !== undefined ||
      !(length >= 1 && length <= limit) ||
      type === undefined ||
      !PLAIN_JSON.test(type) ||
      !req.readable
    ) {
      fallback(req, res, next);
      return;
    }
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const settle = (err?: unknown) => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
      next(err);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      chunks.push(chunk);
    };
    const onAborted = () => settle(new BodyReadError(400, 'request.aborted', 'request aborted'));
    const onError = () => settle(new BodyReadError(400, 'request.aborted', 'request aborted'));
    const onEnd = () => {
      if (received !== length) {
        settle(new BodyReadError(400, 'request.size.invalid', 'request size did not match content length'));
        return;
      }
      const buf = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received);
      try {
        verify(req, res, buf);
      } catch (err) {
        // As Express's parser passes a verify failure on: its own status and type, else 403 and
        // `entity.verify.failed`.
        const e = err as { status?: number; statusCode?: number; expose?: boolean; type?: string };
        const status = e.status ?? e.statusCode ?? 403;
        Object.assign(e, {
          status,
          statusCode: status,
          expose: status < 500,
          type: e.type ?? 'entity.verify.failed',
        });
        settle(e);
        return;
      }
      // UTF-8 without its byte-order mark, as Express's decoder reads it; nothing left reads as {}.
      let text = buf.toString('utf8');
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      if (text.length === 0) {
        req.body = {};
        settle();
        return;
      }
      // Strict mode, as `express.json()`: the body opens an object or an array.
      const first = firstNonBlank(text);
      if (first !== '{' && first !== '[') {
        settle(new BodyReadError(400, 'entity.parse.failed', 'JSON body must be an object or an array'));
        return;
      }
      try {
        req.body = JSON.parse(text);
      } catch (err) {
        settle(new BodyReadError(400, 'entity.parse.failed', (err as Error).message));
        return;
      }
      settle();
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  };
}
