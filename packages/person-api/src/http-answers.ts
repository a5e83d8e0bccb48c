// How the person's API reads a query and writes a read's answer on Node's own request and response (ADR 0303):
// the same bytes and headers Express's `req.query` and `res.send` gave, without Express's objects on the path.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse } from 'node:querystring';
import etag from 'etag';
import fresh from 'fresh';

/** A request of the person's API: Node's, with the route's path parameters and body once read. */
export type PersonRequest = IncomingMessage & {
  params?: Record<string, string>;
  body?: unknown;
};

/**
 * The request's query as Express 5's default ("simple") parser reads it: `node:querystring` over the part after
 * `?` (a repeated key gives an array; no nesting).
 */
export function queryOf(req: IncomingMessage): Record<string, string | string[] | undefined> {
  const url = req.url ?? '';
  const at = url.indexOf('?');
  return at === -1 ? {} : parse(url.slice(at + 1));
}

/**
 * Writes a read's answer as Express's `res.send` does for a text body: the type with `charset=utf-8`, its length, a
 * weak ETag; `304` with no body when the client's copy (If-None-Match / If-Modified-Since) is still fresh; no body
 * for HEAD. `headers` are set first (a route's cache-control).
 *
 * @example
 * ```ts
 * sendRead(req, res, 200, 'application/json', JSON.stringify(page));
 * ```
 */
export function sendRead(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  type: string,
  text: string,
  headers: Record<string, string> = {},
): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  const body = Buffer.from(text, 'utf8');
  res.statusCode = status;
  res.setHeader('Content-Type', `${type}; charset=utf-8`);
  res.setHeader('Content-Length', body.length);
  res.setHeader('ETag', etag(body, { weak: true }));
  if (stillFresh(req, res)) {
    res.statusCode = 304;
    res.removeHeader('Content-Type');
    res.removeHeader('Content-Length');
    res.end();
    return;
  }
  if (req.method === 'HEAD') res.end();
  else res.end(body);
}

/** Whether the client's cached copy is current (what Express's `req.fresh` says for a 2xx read). */
function stillFresh(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (res.statusCode < 200 || res.statusCode >= 300) return false;
  return fresh(req.headers, {
    etag: res.getHeader('ETag') as string | undefined,
    'last-modified': res.getHeader('Last-Modified') as string | undefined,
  });
}
