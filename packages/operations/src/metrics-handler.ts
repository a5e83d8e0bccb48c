// GET /metrics: the registry in the Prometheus text format, only for a caller with the metrics token.
import { createHash, timingSafeEqual } from 'node:crypto';
import { bearerToken, sendHttpError } from '@screen-service/http-kit';
import { ServiceError } from '@screen-service/registry/kernel';
import type { Request, RequestHandler, Response } from 'express';
import type { Registry } from 'prom-client';

/** The shortest SVC_METRICS_TOKEN accepted: a guessable token would expose the service's traffic. */
export const METRICS_TOKEN_MIN_LENGTH = 16;

/**
 * The `/metrics` handler: 401 with `WWW-Authenticate: Bearer` unless `Authorization: Bearer <token>`
 * matches. Both sides are hashed first so the comparison takes the same time whatever the lengths.
 *
 * @example
 * ```ts
 * if (config.metricsToken) app.get('/metrics', metricsHandler(metrics.registry, config.metricsToken));
 * ```
 */
export function metricsHandler(registry: Registry, token: string): RequestHandler {
  if (token.length < METRICS_TOKEN_MIN_LENGTH) {
    throw new RangeError(`The metrics token must be at least ${METRICS_TOKEN_MIN_LENGTH} characters`);
  }
  const expected = digest(token);
  return async (req: Request, res: Response) => {
    const given = bearerToken(req.headers.authorization) ?? '';
    if (!timingSafeEqual(digest(given), expected)) {
      res.setHeader('www-authenticate', 'Bearer realm="metrics"');
      sendHttpError(res, new ServiceError('UNAUTHORIZED', 'Send Authorization: Bearer <SVC_METRICS_TOKEN>.'));
      return;
    }
    res.set('content-type', registry.contentType).set('cache-control', 'no-store');
    res.send(await registry.metrics());
  };
}

const digest = (s: string) => createHash('sha256').update(s).digest();
