// The one request listener of a service (ADR 0242): the steps every request takes, defined and applied once,
// then the request's one handler: its exact path's own (the tool server's), its prefix's (the person's API,
// ADR 0303), or the framework app.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

/** A plain middleware that either calls `next` or answers the request itself (never both). */
export type Step = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/** A plain handler that answers every request it is given. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => unknown;

/**
 * A handler of every path under a prefix: it answers, or calls `next()` to hand the request on (to `fallback`,
 * which answers the JSON 404), or `next(err)` to have it answered as an error.
 */
export type PrefixHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (err?: unknown) => void,
) => void;

/** Options of {@link createServiceListener}. */
export interface ServiceListenerOptions {
  /** Run in order on every request before its handler: security headers, the request counter, ... */
  steps: readonly Step[];
  /**
   * Paths answered by their own handler instead of `fallback`, any method: the path exactly, with or
   * without one trailing slash, whatever the query string.
   */
  routes?: Readonly<Record<string, NodeHandler>>;
  /**
   * Path prefixes answered by their own handler instead of `fallback`: the prefix itself and every path below it
   * (`/prefix/...`, in any letter case), with `req.url` relative to the prefix while the handler runs, as a mounted
   * Express router sees it. No Express object is made for these requests.
   */
  prefixes?: Readonly<Record<string, PrefixHandler>>;
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

/** The prefix `url` falls under, with its handler; undefined when none. */
function prefixOf(
  prefixes: readonly (readonly [string, PrefixHandler])[],
  url: string,
): readonly [string, PrefixHandler] | undefined {
  for (const entry of prefixes) {
    const [p] = entry;
    // Any letter case, as a mounted Express router matched its prefix.
    if (!url.startsWith(p) && url.slice(0, p.length).toLowerCase() !== p.toLowerCase()) continue;
    const after = url.charCodeAt(p.length);
    // The prefix ends at a segment: nothing after it, a slash, or the query.
    if (Number.isNaN(after) || after === 47 || after === 63) return entry;
  }
  return undefined;
}

/**
 * The server's request listener: every request runs `steps`, then the handler of its path in `routes`, the
 * handler of its prefix in `prefixes`, or `fallback`. There is no second way in: a step listed here is not also mounted in the app.
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
  const prefixes = Object.entries(options.prefixes ?? {}).map(([p, h]) => [pathOf(p), h] as const);
  /** Hands the request to its prefix's handler; false when it has none. */
  const underPrefix = (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = req.url ?? '/';
    const found = prefixes.length > 0 ? prefixOf(prefixes, url) : undefined;
    if (!found) return false;
    const rest = url.slice(found[0].length);
    req.url = rest === '' ? '/' : rest.startsWith('?') ? `/${rest}` : rest;
    found[1](req, res, (err?: unknown) => {
      req.url = url;
      if (err !== undefined) onError(err, req, res);
      else fallback(req, res);
    });
    return true;
  };
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
        if (!underPrefix(req, res)) fallback(req, res);
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
