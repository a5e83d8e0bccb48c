// The one request listener of a service (ADR 0242): the steps every request takes, defined and applied once,
// then the request's one handler: its exact path's own (the tool server's) or the framework app.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

/** A plain middleware that either calls `next` or answers the request itself (never both). */
export type Step = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/** A plain handler that answers every request it is given. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => unknown;

/** Options of {@link createServiceListener}. */
export interface ServiceListenerOptions {
  /** Run in order on every request before its handler: security headers, the request counter, ... */
  steps: readonly Step[];
  /**
   * Paths answered by their own handler instead of `fallback`, any method: the path exactly, with or
   * without one trailing slash, whatever the query string.
   */
  routes?: Readonly<Record<string, NodeHandler>>;
  /** Every other request (the Express app). */
  fallback: RequestListener;
  /**
   * Answers a step or a route handler that threw or rejected, in the protocol of the request's path (log
   * it; the process stays up).
   */
  onError: (err: unknown, req: IncomingMessage, res: ServerResponse) => void;
}

function pathOf(url: string | undefined): string {
  const raw = url ?? '/';
  const q = raw.indexOf('?');
  const path = q === -1 ? raw : raw.slice(0, q);
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/**
 * The server's request listener: every request runs `steps`, then the handler of its path in `routes`, or
 * `fallback`. There is no second way in: a step listed here is not also mounted in the app.
 *
 * @example
 * ```ts
 * server.on('request', createServiceListener({
 *   steps: [securityHeaders(), metrics.requests],
 *   routes: { '/functions/v1/svc-mcp': mcp },
 *   fallback: app,
 *   onError: (err, req, res) => sendHttpError(res, err),
 * }));
 * ```
 */
export function createServiceListener(options: ServiceListenerOptions): RequestListener {
  const { steps, fallback, onError } = options;
  const routes = new Map(Object.entries(options.routes ?? {}).map(([p, h]) => [pathOf(p), h]));
  return (req, res) => {
    const handler = routes.get(pathOf(req.url));
    let i = 0;
    const next = () => {
      const step = steps[i++];
      if (step) {
        step(req, res, next);
        return;
      }
      if (!handler) {
        fallback(req, res);
        return;
      }
      const answered = handler(req, res);
      if (answered instanceof Promise) answered.catch((err: unknown) => onError(err, req, res));
    };
    try {
      next();
    } catch (err) {
      onError(err, req, res);
    }
  };
}
