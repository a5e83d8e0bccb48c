// POST {connect_url}/tables: the tables call over HTTP (doc3 "Tables call"); a thin adapter over core.tables.

import type { Tables } from '@screen-service/agent-tables';
import { bearerToken, jsonBody, sendHttpError } from '@screen-service/http-kit';
import type { ConnectionAuth } from '@screen-service/registry/hosts';
import { ServiceError } from '@screen-service/registry/kernel';
import express, { type Request, type Response, type Router } from 'express';

/** What the tables router calls. */
export interface TablesRouterOptions {
  tables: Pick<Tables, 'call'>;
  /** Accepts every live connection (connector tokens `svc_ct_`, OAuth access tokens `svc_at_`). */
  auth: ConnectionAuth;
  /** Called for unexpected (500) errors. */
  onError?: (err: unknown) => void;
}

/** Largest body in bytes: 100,000 characters of lines or reply, JSON-escaped, fit well within it. */
export const TABLES_BODY_LIMIT = 512 * 1024;

/**
 * An Express router answering `POST /` with `{agent?, lines}` / `{agent?, reply}` / `{agent?}`; mounted at
 * `{connect_url}/tables`. Errors are the one contract's `{error, message, field?}` (ADR 0095) and a 429
 * carries `Retry-After`.
 *
 * @example
 * ```ts
 * app.use('/functions/v1/svc-connect/tables', createTablesRouter({ tables: core.tables, auth: core.anyConnectionAuth }));
 * ```
 */
export function createTablesRouter(options: TablesRouterOptions): Router {
  const router = express.Router();
  // 401 carries `WWW-Authenticate: Bearer`, 429 `Retry-After` (the shared writer sets both).
  const fail = (res: Response, err: unknown) => {
    if (sendHttpError(res, err).status >= 500) options.onError?.(err);
  };

  router.post('/', jsonBody({ limit: TABLES_BODY_LIMIT }), async (req: Request, res: Response) => {
    try {
      const principal = await options.auth.verify(bearerToken(req.headers.authorization));
      const body: unknown = req.body;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw new ServiceError(
          'INVALID_INPUT',
          'Send a JSON object: {"agent", "lines"} or {"agent", "reply"}.',
          {
            field: 'body',
          },
        );
      }
      const { agent, lines, reply, session } = body as Record<string, unknown>;
      if (agent !== undefined && typeof agent !== 'string') {
        throw new ServiceError('INVALID_INPUT', 'agent must be the agent handle (text).', {
          field: 'agent',
        });
      }
      res.status(200).json(await options.tables.call(principal, { agent, lines, reply, session }));
    } catch (err) {
      fail(res, err);
    }
  });
  router.all('/', (_req, res) => {
    res.set('allow', 'POST');
    fail(res, new ServiceError('METHOD_NOT_ALLOWED', 'Use POST with a JSON body.'));
  });
  router.use((err: unknown, _req: Request, res: Response, _next: (e?: unknown) => void) => fail(res, err));
  return router;
}
