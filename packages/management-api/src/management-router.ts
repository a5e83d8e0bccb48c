// POST {agents_url}: the management API. Parses the JSON body, authenticates, dispatches on `action` to
// the registry's AgentManagement and maps refusals to doc2's errors. No rule lives here.

import { verifyJsonDepth } from '@screen-service/http-kit';
import { ServiceError } from '@screen-service/registry/kernel';
import type { AgentManagement } from '@screen-service/registry/tokens';
import express, { type Request, type Response, type Router } from 'express';
import { toManagementError } from './errors.js';

export interface ManagementRouterOptions {
  /** The core's `management` use cases. */
  management: AgentManagement;
  /** Called for unexpected (500) errors. */
  onError?: (err: unknown) => void;
}

/** Every action this API serves, in doc2's order; the last four are app-only. */
export const MANAGEMENT_ACTIONS = [
  'list',
  'create',
  'update',
  'reorder',
  'pair_code',
  'delete',
  'token_create',
  'token_list',
  'token_revoke',
  'connector_revoke',
] as const;

export type ManagementAction = (typeof MANAGEMENT_ACTIONS)[number];

type Body = Record<string, unknown>;
type Handler = (
  m: AgentManagement,
  caller: Awaited<ReturnType<AgentManagement['authenticate']>>,
  b: Body,
) => Promise<unknown>;

const HANDLERS: Record<ManagementAction, Handler> = {
  list: (m, c) => m.list(c),
  create: (m, c, b) =>
    m.create(c, {
      name: b.name,
      color: b.color,
      pair: b.pair,
      remote_ref: b.remote_ref,
      connector_id: b.connector_id,
    }),
  update: (m, c, b) =>
    m.update(c, b.id, {
      name: b.name,
      color: b.color,
      sort: b.sort,
      is_default: b.is_default,
      avatar: b.avatar,
      theme: b.theme,
      push_muted: b.push_muted,
    }),
  reorder: (m, c, b) => m.reorder(c, b.ids),
  pair_code: (m, c, b) => m.pairCode(c, b.agent_id),
  delete: (m, c, b) => m.delete(c, b.id),
  token_create: (m, c, b) => m.tokenCreate(c, b.name),
  token_list: (m, c) => m.tokenList(c),
  token_revoke: (m, c, b) => m.tokenRevoke(c, b.id),
  connector_revoke: (m, c, b) => m.connectorRevoke(c, b.connector_id ?? b.id),
};

/**
 * An Express router answering `POST /` with `{action, ...}`; mount it at `/functions/v1/svc-agents`.
 * The `apikey` header of doc2 is accepted and ignored: this service has no publishable key.
 *
 * @example
 * ```ts
 * app.use('/functions/v1/svc-agents', createManagementRouter({ management: core.management }));
 * // POST {"action":"create","name":"Research","pair":true}  Authorization: Bearer svc_mt_...
 * // 200 {"agent":{...},"pairing":{"code":"123456","expires_at":"..."}}
 * ```
 */
export function createManagementRouter(options: ManagementRouterOptions): Router {
  const router = express.Router();
  const fail = (res: Response, err: unknown) => {
    const wire = toManagementError(err);
    if (wire.status >= 500) options.onError?.(err);
    if (wire.status === 401) res.set('www-authenticate', 'Bearer');
    res.status(wire.status).json(wire.body);
  };

  // Credentials before the body is even parsed: an unauthenticated caller learns nothing but 401.
  const authenticate = async (req: Request, res: Response, next: (e?: unknown) => void) => {
    res.set('cache-control', 'no-store');
    try {
      res.locals.caller = await options.management.authenticate(req.headers.authorization);
      next();
    } catch (err) {
      fail(res, err);
    }
  };

  router.post(
    '/',
    authenticate,
    express.json({ limit: '64kb', verify: verifyJsonDepth() }),
    async (req, res) => {
      try {
        const caller = res.locals.caller as Parameters<Handler>[1];
        const body = req.body as unknown;
        if (typeof body !== 'object' || body === null || Array.isArray(body)) {
          throw new ServiceError('INVALID_INPUT', 'Send a JSON object with an "action".', { field: 'body' });
        }
        const action = (body as Body).action;
        const handler = typeof action === 'string' ? HANDLERS[action as ManagementAction] : undefined;
        if (!handler || !Object.hasOwn(HANDLERS, action as string)) {
          throw new ServiceError(
            'INVALID_INPUT',
            `Unknown action ${JSON.stringify(action)}; this API serves: ${MANAGEMENT_ACTIONS.join(', ')}.`,
            { field: 'action' },
          );
        }
        res.status(200).json(await handler(options.management, caller, body as Body));
      } catch (err) {
        fail(res, err);
      }
    },
  );

  router.all('/', (_req, res) => {
    res.set('allow', 'POST');
    fail(res, new ServiceError('METHOD_NOT_ALLOWED', 'Use POST with a JSON body.'));
  });

  // Body parser failures (bad JSON, too large) get the same mapping as the rules' refusals.
  router.use((err: unknown, _req: Request, res: Response, _next: (e?: unknown) => void) => {
    fail(res, err);
  });
  return router;
}
