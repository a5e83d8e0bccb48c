// POST {connect_url}: the host API. The shared action endpoint (http-kit) reads the JSON body, dispatches on
// `action` and answers refusals in doc2's host spellings; `/messages` and `/tables` are mounted beside it.

import type { HostTransport } from '@screen-service/core/host-messages';
import { type ActionHandler, bearerToken, createActionEndpoint } from '@screen-service/http-kit';
import type { ConnectionAuth, Hosts, Pairing } from '@screen-service/registry/hosts';
import express, { type Request, type Router } from 'express';
import { HOST_ACTIONS, hostActions } from './host-actions.js';
import { createMessagesRouter } from './messages-router.js';
import { createTablesRouter, type TablesRouterOptions } from './tables-router.js';

export interface ConnectHandlerOptions {
  pairing: Pairing;
  /** The client address for the wrong-code throttle; default `req.ip` (set Express `trust proxy` to suit). */
  clientAddr?: (req: Request) => string;
  /** Called for unexpected (500) errors. */
  onError?: (err: unknown) => void;
  /** `add`, `heartbeat`, `commands`, `card`, `session` (core.hosts); without it only `pair` is served. */
  hosts?: Hosts;
  /** Verifies connector tokens for everything but `pair` (core.hostAuth). */
  hostAuth?: ConnectionAuth;
  /** The message transport under `/messages` (core.hostTransport; ADR 0130). */
  transport?: HostTransport;
  /** Serves `POST /tables` (doc3's tables call) when given. */
  tables?: Omit<TablesRouterOptions, 'onError'>;
}

/** Actions of doc2's host API this version serves (with `hosts` and `hostAuth`; else only `pair`). */
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
  const onError = options.onError ? { onError: options.onError } : {};

  const pair: ActionHandler<undefined, Request> = ({ req, body }) =>
    options.pairing.pair({
      code: body.code,
      remote_ref: body.remote_ref,
      kind: body.kind,
      host_name: body.host_name,
      clientAddr: clientAddr(req),
      connectorToken: bearerToken(req.headers.authorization),
    });
  const hosts =
    options.hosts && options.hostAuth
      ? hostActions({ hosts: options.hosts, hostAuth: options.hostAuth })
      : {};

  if (options.tables) router.use('/tables', createTablesRouter({ ...options.tables, ...onError }));
  if (options.transport && options.hostAuth) {
    router.use(
      '/messages',
      createMessagesRouter({ transport: options.transport, hostAuth: options.hostAuth, ...onError }),
    );
  }
  router.all(
    '/',
    createActionEndpoint<undefined, Request>({ actions: { pair, ...hosts }, spelling: 'host', ...onError }),
  );
  return router;
}
