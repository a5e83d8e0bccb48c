// POST {agents_url}: the management API. The shared action endpoint (http-kit) authenticates the bearer
// token, reads the body and dispatches on `action` to the registry's AgentManagement. No rule lives here.

import { bearerToken, createActionEndpoint } from '@screen-service/http-kit';
import type { AgentManagement, AgentsCaller } from '@screen-service/management-tokens';
import { createRateLimiter, type RateLimiter, ServiceError } from '@screen-service/registry/kernel';
import express, { type Router } from 'express';

export interface ManagementRouterOptions {
  /** The core's `management` use cases. */
  management: AgentManagement;
  /** Called for unexpected (500) errors. */
  onError?: (err: unknown) => void;
  /**
   * Calls per account (bucket `management`), whichever token or sign-in makes them; default
   * {@link MANAGEMENT_RATE} in this process. The server passes its shared limits' bucket.
   */
  rateLimit?: RateLimiter;
  /**
   * The `receipts` action (ADR 0261): the owner's thread's receipts as JSON Lines. A management token gets
   * the receipts without the answers (it never reads messages); the app gets both. Absent: refused.
   */
  receipts?: (userId: string, agentId: unknown, options: { answers: boolean }) => Promise<string>;
}

/** The management API's bucket per account: burst 30, then 30 calls a minute (issue 46). */
export const MANAGEMENT_RATE = { burst: 30, perMinute: 30 } as const;

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
  'receipts',
] as const;

export type ManagementAction = (typeof MANAGEMENT_ACTIONS)[number];

type Handler = (ctx: { caller: AgentsCaller; body: Record<string, unknown> }) => Promise<unknown>;

function handlers(
  m: AgentManagement,
  receipts: ManagementRouterOptions['receipts'],
): Record<ManagementAction, Handler> {
  return {
    receipts: async ({ caller, body }) => {
      if (!receipts) throw new ServiceError('NOT_FOUND', 'This service exports no receipts.');
      const jsonl = await receipts(caller.userId, body.agent_id, { answers: caller.via === 'app' });
      return { agent_id: body.agent_id, format: 'jsonl', receipts: jsonl };
    },
    list: ({ caller }) => m.list(caller),
    create: ({ caller, body: b }) =>
      m.create(caller, {
        name: b.name,
        color: b.color,
        pair: b.pair,
        remote_ref: b.remote_ref,
        connector_id: b.connector_id,
      }),
    update: ({ caller, body: b }) =>
      m.update(caller, b.id, {
        name: b.name,
        color: b.color,
        sort: b.sort,
        is_default: b.is_default,
        avatar: b.avatar,
        theme: b.theme,
        push_muted: b.push_muted,
      }),
    reorder: ({ caller, body }) => m.reorder(caller, body.ids),
    pair_code: ({ caller, body }) => m.pairCode(caller, body.agent_id),
    delete: ({ caller, body }) => m.delete(caller, body.id),
    token_create: ({ caller, body }) => m.tokenCreate(caller, body.name),
    token_list: ({ caller }) => m.tokenList(caller),
    token_revoke: ({ caller, body }) => m.tokenRevoke(caller, body.id),
    connector_revoke: ({ caller, body }) => m.connectorRevoke(caller, body.connector_id ?? body.id),
  };
}

/**
 * An Express router answering `POST /` with `{action, ...}`; mount it at `/functions/v1/svc-agents`.
 * Credentials are checked before the body is read (an unauthenticated caller learns nothing but 401); every
 * answer is `Cache-Control: no-store`; refusals use doc2's management spellings. The `apikey` header of doc2
 * is accepted and ignored: this service has no publishable key.
 *
 * @example
 * ```ts
 * app.use('/functions/v1/svc-agents', createManagementRouter({ management: core.management }));
 * // POST {"action":"create","name":"Research","pair":true}  Authorization: Bearer svc_mt_...
 * // 200 {"agent":{...},"pairing":{"code":"123456","expires_at":"..."}}
 * ```
 */
export function createManagementRouter(options: ManagementRouterOptions): Router {
  const { management } = options;
  const limiter = options.rateLimit ?? createRateLimiter(MANAGEMENT_RATE);
  const router = express.Router();
  // Counted after the credentials (a stranger's 401 costs no one's bucket), before the body is read.
  const authenticate = async (token: string | null): Promise<AgentsCaller> => {
    const caller = await management.authenticate(token);
    const decision = await limiter.take(caller.userId);
    if (!decision.ok) {
      throw new ServiceError(
        'RATE_LIMITED',
        `Too many management calls for this account; retry in ${decision.retryAfterS} s.`,
        { details: { retryAfterS: decision.retryAfterS } },
      );
    }
    return caller;
  };
  router.all(
    '/',
    createActionEndpoint<AgentsCaller>({
      actions: handlers(management, options.receipts),
      authenticate: (req) => authenticate(bearerToken(req.headers.authorization)),
      spelling: 'management',
      headers: { 'cache-control': 'no-store' },
      ...(options.onError ? { onError: options.onError } : {}),
    }),
  );
  return router;
}
