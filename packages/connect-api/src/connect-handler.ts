// POST {connect_url}: the host API. Parses the JSON body, dispatches on `action`, maps errors to doc2's.

import type { HostTransport } from '@screen-service/core/host-messages';
import { verifyJsonDepth } from '@screen-service/http-kit';
import { bearerToken, type ConnectionAuth, type Hosts, type Pairing } from '@screen-service/registry/hosts';
import { ServiceError } from '@screen-service/registry/kernel';
import express, { type Request, type Response, type Router } from 'express';
import { toWireError } from './errors.js';
import { HOST_ACTIONS, isHostAction, runHostAction } from './host-actions.js';
import { createMessagesRouter } from './messages-router.js';
import { createTablesRouter, type TablesRouterOptions } from './tables-router.js';

export interface ConnectHandlerOptions {
  pairing: Pairing;
  /** The client address for the wrong-code throttle; default `req.ip` (set Express `trust proxy` to suit). */
  clientAddr?: (req: Request) => string;
  /** Called for unexpected (500) errors. */
  onError?: (err: unknown) => void;
  /** `add`, `heartbeat`, `commands`, `session` (core.hosts); without it only `pair` is served. */
  hosts?: Hosts;
  /** Verifies connector tokens for everything but `pair` (core.hostAuth). */
  hostAuth?: ConnectionAuth;
  /** The message transport under `/messages` (core.hostTransport; ADR 0130). */
  transport?: HostTransport;
  /** Serves `POST /tables` (doc3's tables call) when given. */
  tables?: Omit<TablesRouterOptions, 'onError'>;
}

/** Actions of doc2's host API this version serves. */
export const CONNECT_ACTIONS = ['pair', ...HOST_ACTIONS] as const;

/**
 * An Express router answering `POST /` with `{action, ...}`; mount it at `/functions/v1/svc-connect`.
 *
 * @example
 * ```ts
 * app.use('/functions/v1/svc-connect', createConnectRouter({ pairing: createPairing({ store }) }));
 * // POST {"action":"pair","code":"123456","remote_ref":"claude","kind":"mcp","host_name":"laptop"}
 * // 200 {"connector":{"id","name","kind"},"connector_token":"svc_ct_...","agent":{...}}
 * ```
 */
export function createConnectRouter(options: ConnectHandlerOptions): Router {
  const router = express.Router();
  const clientAddr =
    options.clientAddr ?? ((req: Request) => req.ip ?? req.socket.remoteAddress ?? 'unknown');

  const fail = (res: Response, err: unknown) => {
    const wire = toWireError(err);
    if (wire.status >= 500) options.onError?.(err);
    res.status(wire.status).json(wire.body);
  };

  if (options.tables) router.use('/tables', createTablesRouter({ ...options.tables, ...pick(options) }));
  router.post('/', express.json({ limit: '64kb', verify: verifyJsonDepth() }), async (req, res) => {
    const body = req.body as Record<string, unknown> | undefined;
    try {
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw new ServiceError('INVALID_INPUT', 'Send a JSON object with an "action".', { field: 'body' });
      }
      switch (body.action) {
        case 'pair': {
          const result = await options.pairing.pair({
            code: body.code,
            remote_ref: body.remote_ref,
            kind: body.kind,
            host_name: body.host_name,
            clientAddr: clientAddr(req),
            connectorToken: bearerToken(req.headers.authorization),
          });
          res.status(200).json(result);
          return;
        }
        default:
          if (isHostAction(body.action)) {
            const deps =
              options.hosts && options.hostAuth
                ? { hosts: options.hosts, hostAuth: options.hostAuth }
                : undefined;
            res.status(200).json(await runHostAction(deps, req, body));
            return;
          }
          throw new ServiceError(
            'INVALID_INPUT',
            `Unknown action ${JSON.stringify(body.action)}; this server serves: ${CONNECT_ACTIONS.join(', ')}.`,
            { field: 'action' },
          );
      }
    } catch (err) {
      fail(res, err);
    }
  });

  if (options.transport && options.hostAuth) {
    router.use(
      '/messages',
      createMessagesRouter({ transport: options.transport, hostAuth: options.hostAuth, fail }),
    );
  }

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

const pick = (o: ConnectHandlerOptions) => (o.onError ? { onError: o.onError } : {});
