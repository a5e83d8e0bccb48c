// Builds the Express router of the person's API from the route table: auth, zod validation, error mapping.
import { type AppPrincipal, bearerToken, ServiceError } from '@screen-service/service-core';
import express, { type Request, type RequestHandler, type Router } from 'express';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { MAX_PHOTO_BYTES } from '../photos/photo-store.js';
import type { Services } from '../services.js';
import { toHttpError } from './http-errors.js';
import type { RouteDef } from './route-table.js';
import { routes as defaultRoutes } from './routes.js';

function validate(schema: z.ZodType | undefined, value: unknown, where: 'body' | 'query'): unknown {
  if (!schema) return value;
  const parsed = schema.safeParse(value ?? (where === 'query' ? {} : undefined));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.length > 0 ? issue.path.join('.') : where;
  throw new ServiceError('INVALID_INPUT', `${field}: ${issue.message}`, { field });
}

async function authenticate(services: Services, req: Request): Promise<AppPrincipal> {
  // EventSource cannot set headers, so the stream also takes ?access_token=.
  const fromQuery = typeof req.query.access_token === 'string' ? req.query.access_token : null;
  const token = bearerTokenOrJwt(req.headers.authorization) ?? fromQuery;
  return services.accounts.verifyAccess(token);
}

function bearerTokenOrJwt(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^\s*Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1]! : bearerToken(header);
}

export function createPersonRouter(
  services: Services,
  logger: Logger,
  routes: RouteDef[] = defaultRoutes,
): Router {
  const router = express.Router();
  const json = express.json({ limit: '256kb' });
  const image = express.raw({ type: () => true, limit: MAX_PHOTO_BYTES });
  for (const route of routes) {
    const handler: RequestHandler = async (req, res) => {
      try {
        const user =
          route.auth === 'user' ? await authenticate(services, req) : (undefined as unknown as AppPrincipal);
        const result = await route.handler({
          services,
          user,
          params: req.params as Record<string, string>,
          query: validate(route.query, req.query, 'query') as Record<string, unknown>,
          body: route.raw?.request ? req.body : validate(route.body, req.body, 'body'),
          req,
          res,
        });
        if (res.headersSent) return;
        if (route.response) res.status(route.status ?? 200).json(result);
        else res.status(route.status ?? 204).end();
      } catch (err) {
        const wire = toHttpError(err);
        if (wire.status >= 500) logger.error({ err, path: req.path }, 'request failed');
        if (res.headersSent) {
          res.destroy();
          return;
        }
        res.status(wire.status).json(wire.body);
      }
    };
    const parsers = route.raw?.request ? [image] : route.body ? [json] : [];
    router[route.method](route.path, ...parsers, handler);
  }
  return router;
}
