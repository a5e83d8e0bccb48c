// The one `POST {action, ...}` endpoint of doc2's host and management APIs: read the JSON body, dispatch on
// `action` to a handler table, answer the handler's result or the refusal in the API's spelling.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ServiceError } from '@screen-service/registry/kernel';
import type { ErrorSpelling } from './error-table.js';
import { sendHttpError, writeJson } from './http-errors.js';
import { readJsonBody } from './json-body.js';

/** What an action receives: the body (an object), the caller `authenticate` gave, the request. */
export interface ActionContext<C, R extends IncomingMessage> {
  body: Record<string, unknown>;
  caller: C;
  req: R;
}

/** One action: returns the JSON answer (200) or throws a ServiceError. */
export type ActionHandler<C, R extends IncomingMessage> = (ctx: ActionContext<C, R>) => unknown;

/** Options of {@link createActionEndpoint}. */
export interface ActionEndpointOptions<C, R extends IncomingMessage> {
  /** The table: action name to handler. Only own properties count (`toString` is no action). */
  actions: Readonly<Record<string, ActionHandler<C, R>>>;
  /**
   * Runs before the body is read, for every action: a refusal is answered without reading it (an
   * unauthenticated caller learns nothing but 401). Absent: each action checks its own credentials.
   */
  authenticate?: (req: R) => Promise<C>;
  /** How the API spells codes (`host` or `management` for doc2's APIs). */
  spelling: ErrorSpelling;
  /** Largest body in bytes; default 64 KiB. */
  limit?: number;
  /** Headers of every answer (the management API's `Cache-Control: no-store`). */
  headers?: Readonly<Record<string, string>>;
  /** Called with unexpected (500) errors. */
  onError?: (err: unknown) => void;
}

/** The default body limit of an action endpoint: doc2's bodies are small. */
export const ACTION_BODY_LIMIT = 64 * 1024;

/**
 * A node:http handler (mount it in Express with `router.all('/', endpoint)`) for `POST {"action": ..., ...}`:
 * any other method is 405 with `Allow: POST`; a body that is not a JSON object is `invalid_body`; an action
 * not in the table is `invalid_action`, naming the ones served; every refusal is `{error, message}` in the
 * API's spelling, with `WWW-Authenticate: Bearer` on a 401 and `Retry-After` on a rate limit.
 *
 * @example
 * ```ts
 * router.all('/', createActionEndpoint({
 *   spelling: 'management',
 *   authenticate: (req) => management.authenticate(bearerToken(req.headers.authorization)),
 *   actions: { list: ({ caller }) => management.list(caller) },
 * }));
 * ```
 */
export function createActionEndpoint<C = undefined, R extends IncomingMessage = IncomingMessage>(
  options: ActionEndpointOptions<C, R>,
): (req: R, res: ServerResponse) => Promise<void> {
  const { actions, authenticate, spelling } = options;
  const limit = options.limit ?? ACTION_BODY_LIMIT;
  const served = Object.keys(actions).join(', ');
  return async (req, res) => {
    for (const [name, value] of Object.entries(options.headers ?? {})) res.setHeader(name, value);
    try {
      if (req.method !== 'POST') {
        res.setHeader('allow', 'POST');
        throw new ServiceError('METHOD_NOT_ALLOWED', 'Use POST with a JSON body.');
      }
      const caller = (authenticate ? await authenticate(req) : undefined) as C;
      const body = await readJsonBody(req, { limit });
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw new ServiceError('INVALID_INPUT', 'Send a JSON object with an "action".', { field: 'body' });
      }
      const action = (body as { action?: unknown }).action;
      const handler =
        typeof action === 'string' && Object.hasOwn(actions, action) ? actions[action] : undefined;
      if (!handler) {
        throw new ServiceError(
          'INVALID_INPUT',
          `Unknown action ${JSON.stringify(action) ?? 'undefined'}; this endpoint serves: ${served}.`,
          { field: 'action' },
        );
      }
      writeJson(res, 200, await handler({ body: body as Record<string, unknown>, caller, req }));
    } catch (err) {
      if (sendHttpError(res, err, { spelling }).status >= 500) options.onError?.(err);
    }
  };
}
