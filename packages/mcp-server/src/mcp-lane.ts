// The tool server's one route answered before a framework (ADR 0218): `POST /functions/v1/svc-mcp` is most
// of a service's traffic, and walking an Express app and its mounts costs microseconds on every call.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { McpHandler } from './mcp-handler.js';

/** A plain middleware that either calls `next` or answers the request itself (never both). */
export type PlainMiddleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/**
 * A request listener that gives exactly `POST {path}` (no query string, no trailing slash) to `handler`
 * after `before` (the same per-request middleware the app runs first: security headers, the request counter,
 * the Host check), and every other request to `app`, which mounts the same handler for the rest.
 *
 * @example
 * ```ts
 * server.on('request', withMcpLane(app, '/functions/v1/svc-mcp', mcp, [securityHeaders(), guard]));
 * ```
 */
export function withMcpLane(
  app: RequestListener,
  path: string,
  handler: McpHandler,
  before: readonly PlainMiddleware[],
): RequestListener {
  return (req, res) => {
    if (req.url !== path || req.method !== 'POST') {
      app(req, res);
      return;
    }
    let i = 0;
    const next = () => {
      const step = before[i++];
      if (step) step(req, res, next);
      else void handler(req, res); // the handler answers its own errors
    };
    try {
      next();
    } catch {
      // A step that throws must not take the process down (Express would have caught it too).
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.statusCode = 500;
      res.setHeader('content-type', 'application/json; charset=utf-8');
      res.end(JSON.stringify({ error: 'internal_error', message: 'Internal error on our side.' }));
    }
  };
}
