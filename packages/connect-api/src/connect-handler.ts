// POST {connect_url}: the host API. Parses the JSON body, dispatches on `action`, maps errors to doc2's.
import { bearerToken, type Pairing } from '@screen-service/service-core';
import express, { type Request, type Response, type Router } from 'express';
import { toWireError } from './errors.js';

export interface ConnectHandlerOptions {
  pairing: Pairing;
  /** The client address for the wrong-code throttle; default `req.ip` (set Express `trust proxy` to suit). */
  clientAddr?: (req: Request) => string;
  /** Called for unexpected (500) errors. */
  onError?: (err: unknown) => void;
}

/** Actions of doc2's host API this version serves. `add`, `heartbeat`, `commands`, `session` come next. */
export const CONNECT_ACTIONS = ['pair'] as const;

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

  router.post('/', express.json({ limit: '64kb' }), async (req, res) => {
    const body = req.body as Record<string, unknown> | undefined;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      res.status(400).json({ error: 'invalid_body', message: 'Send a JSON object with an "action".' });
      return;
    }
    try {
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
          res.status(400).json({
            error: 'invalid_action',
            message: `Unknown action ${JSON.stringify(body.action)}; this server serves: ${CONNECT_ACTIONS.join(', ')}.`,
          });
      }
    } catch (err) {
      fail(res, err);
    }
  });

  router.all('/', (_req, res) => {
    res
      .status(405)
      .set('allow', 'POST')
      .json({ error: 'invalid_method', message: 'Use POST with a JSON body.' });
  });

  // Malformed JSON bodies: answer in the API's own shape.
  router.use((err: unknown, _req: Request, res: Response, next: (e?: unknown) => void) => {
    const e = err as { type?: string; status?: number };
    if (e?.type === 'entity.parse.failed' || e?.type === 'entity.too.large') {
      res
        .status(e.status ?? 400)
        .json({ error: 'invalid_body', message: 'The body must be a JSON object up to 64 KB.' });
      return;
    }
    next(err);
  });
  return router;
}
