// Builds the handler of the person's API from the route table on Node's own request objects (ADR 0303): auth, zod
// validation, error mapping.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { bearerToken, readJsonBody, sendHttpError } from '@screen-service/http-kit';
import type { AppPrincipal } from '@screen-service/registry/accounts';
import { ServiceError } from '@screen-service/registry/kernel';
import express from 'express';
import type { z } from 'zod';
import { type PersonRequest, queryOf, sendRead } from './http-answers.js';
import { JsonText } from './json-text.js';
import type { RouteDef } from './route.js';
import { RouteTable } from './route-table.js';
import { personRoutes } from './routes/index.js';
import type { PersonApiServices } from './services.js';

/** Largest JSON body the API reads, in bytes (256 KB). */
export const JSON_BODY_LIMIT = 256 * 1024;

export interface PersonRouterOptions {
  services: PersonApiServices;
  /** Aborted when the server begins shutting down: live streams end at once. */
  shutdown?: AbortSignal;
  /** Called with unexpected errors (answered 500 with a generic message). */
  onError?: (err: unknown, req: IncomingMessage) => void;
  /**
   * The caller's address for the sign-in throttles (ADR 0303): the server's rule for forwarded addresses (its
   * trusted proxies). Default: the socket's peer, never a forwarded header.
   */
  clientAddr?: (req: IncomingMessage) => string;
  /** The table to serve; default every route of the API. */
  routes?: readonly RouteDef[];
  /**
   * Check every JSON answer against its route's response schema; a mismatch is answered 500 and reported
   * to `onError`. Tests turn this on so the schemas (and so `/openapi.json`) cannot drift from the code.
   */
  checkResponses?: boolean;
  /** Event streams one account may hold open at once (default 10); one more is refused with 429. */
  streamsPerAccount?: number;
}

/** Default of {@link PersonRouterOptions.streamsPerAccount}: a person's phones, tablets and tabs. */
export const STREAMS_PER_ACCOUNT = 10;

/** Thrown (in `checkResponses` mode) when a handler's answer does not match its route's schema. */
export class ResponseMismatchError extends Error {
  constructor(route: RouteDef, issues: z.core.$ZodIssue[]) {
    const first = issues[0];
    super(
      `${route.method.toUpperCase()} ${route.path} answered outside its schema: ` +
        `${first?.path.join('.') || '(root)'}: ${first?.message ?? 'mismatch'}`,
    );
    this.name = 'ResponseMismatchError';
  }
}

function validate(schema: z.ZodType | undefined, value: unknown, where: 'body' | 'query'): unknown {
  if (!schema) return value;
  const parsed = schema.safeParse(value ?? (where === 'query' ? {} : undefined));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.length > 0 ? issue.path.join('.') : where;
  throw new ServiceError('INVALID_INPUT', `${field}: ${issue.message}`, { field });
}

function accessToken(req: IncomingMessage, inQuery: boolean): string | null {
  const header = req.headers.authorization;
  if (header) return bearerToken(header);
  // EventSource cannot set headers, so the stream (only) also takes ?access_token=: anywhere else a token
  // in the URL would end up in logs, history and Referer headers.
  const query = queryOf(req);
  if (inQuery && typeof query.access_token === 'string') return query.access_token;
  if (query.access_token !== undefined) {
    throw new ServiceError(
      'UNAUTHORIZED',
      'Send the access token as Authorization: Bearer <access_token>; only GET /stream takes ?access_token=.',
    );
  }
  return null;
}

/** Express's answer to OPTIONS on a known path: 200, the methods in `Allow` and as the text body. */
function sendAllow(res: ServerResponse, allow: string): void {
  res.setHeader('Allow', allow);
  res.setHeader('Content-Length', Buffer.byteLength(allow));
  res.setHeader('Content-Type', 'text/plain');
  res.end(allow);
}

/**
 * A handler of the person's API on Node's own request and response (ADR 0303): the server calls it for every
 * path under `/functions/v1/svc-app` with `req.url` relative to that prefix, and `next()` when no route matched
 * (the caller answers its JSON 404). It is also Express middleware: `app.use(prefix, handler)` serves the same.
 */
export type PersonHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (err?: unknown) => void,
) => void;

/**
 * The person's API; mount it at `/functions/v1/svc-app`. No Express object is on its path: a request keeps Node's
 * own shape, which made the tap path about 6% cheaper on the event loop (ADR 0303).
 *
 * @example
 * ```ts
 * app.use(API_PREFIX, createPersonRouter({ services, shutdown: stopping.signal, onError: log }));
 * ```
 */
export function createPersonRouter(options: PersonRouterOptions): PersonHandler {
  const { services } = options;
  const routes = options.routes ?? personRoutes;
  const shutdown = options.shutdown ?? new AbortController().signal;
  // JSON bodies are read by the one JSON reader of every adapter (http-kit, ADR 0242); photos come as bytes.
  const image = express.raw({ type: () => true, limit: services.photos.maxBytes });
  const streamsPerAccount = options.streamsPerAccount ?? STREAMS_PER_ACCOUNT;
  const openStreams = new Map<string, number>();
  // Only the photo parser (body-parser's raw) fails with a body parser's error, which names this limit.
  const bodyLimit = `${Math.round(services.photos.maxBytes / 1024 / 1024)} MB`;
  const clientAddr = options.clientAddr ?? ((req: IncomingMessage) => req.socket.remoteAddress ?? 'unknown');

  const send = (req: IncomingMessage, res: ServerResponse, err: unknown) => {
    if (sendHttpError(res, err, { bodyLimit }).status >= 500) options.onError?.(err, req);
  };

  /** Counts an open stream against its account until the answer closes; refuses one past the cap. */
  const holdStream = (userId: string, res: ServerResponse) => {
    const open = openStreams.get(userId) ?? 0;
    if (open >= streamsPerAccount) {
      throw new ServiceError(
        'RATE_LIMITED',
        `This account already has ${open} live streams open; close a tab or app to open another.`,
      );
    }
    openStreams.set(userId, open + 1);
    res.once('close', () => {
      const left = (openStreams.get(userId) ?? 1) - 1;
      if (left > 0) openStreams.set(userId, left);
      else openStreams.delete(userId);
    });
  };

  /** Reads the route's body (JSON, or a photo's bytes) into `req.body`, then answers; refusals are sent. */
  const compiled = (route: RouteDef) => {
    const answer = answerer(route);
    if (route.raw?.request) {
      return (req: PersonRequest, res: ServerResponse) =>
        image(req as express.Request, res as express.Response, (err?: unknown) =>
          err ? send(req, res, err) : answer(req, res),
        );
    }
    if (!route.body) return answer;
    return (req: PersonRequest, res: ServerResponse) => {
      readJsonBody(req, { limit: JSON_BODY_LIMIT }).then(
        (body) => {
          req.body = body;
          return answer(req, res);
        },
        (err: unknown) => send(req, res, err),
      );
    };
  };

  /** The route's handler between auth and the answer, as before the table (ADR 0295 changed the lookup). */
  const answerer = (route: RouteDef) => async (req: PersonRequest, res: ServerResponse) => {
    try {
      const token = route.auth === 'user' ? accessToken(req, route.tokenInQuery === true) : null;
      const user: AppPrincipal | undefined =
        route.auth === 'user' ? await services.accounts.verifyAccess(token) : undefined;
      if (user && route.raw?.response === 'text/event-stream') holdStream(user.userId, res);
      const stillSignedIn = () =>
        services.accounts.verifyAccess(token).then(
          () => true,
          () => false,
        );
      const result = await route.handler({
        services,
        user,
        params: req.params ?? {},
        query: validate(route.query, queryOf(req), 'query'),
        body: route.raw?.request ? req.body : validate(route.body, req.body, 'body'),
        req,
        res,
        shutdown,
        stillSignedIn,
        clientAddr: () => clientAddr(req),
      });
      if (res.headersSent) return;
      if (route.response && !route.raw?.response) writeAnswer(route, result, req, res);
      else {
        res.statusCode = route.status ?? 204;
        res.end();
      }
    } catch (err) {
      send(req, res, err);
    }
  };

  const writeAnswer = (route: RouteDef, result: unknown, req: IncomingMessage, res: ServerResponse) => {
    const text = result instanceof JsonText ? result.text : undefined;
    if (options.checkResponses) {
      const checked = route.response!.safeParse(text === undefined ? result : JSON.parse(text));
      if (!checked.success) throw new ResponseMismatchError(route, checked.error.issues);
    }
    const status = route.status ?? 200;
    const written = text ?? JSON.stringify(result);
    // The answer to a change (POST, PUT, PATCH, DELETE) is written as it is: no ETag (nobody revalidates a
    // change's answer; hashing every one would cost), the same type and body.
    if (route.method !== 'get') {
      res.statusCode = status;
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.setHeader('Content-Length', Buffer.byteLength(written));
      res.end(written);
    }
    // A read: an ETag, and 304 to a client whose copy is still current.
    else sendRead(req, res, status, 'application/json', written);
  };

  // One lookup per request in a table built here once (ADR 0295): every route of the API goes through it.
  const table = new RouteTable(routes.map((r) => ({ method: r.method, path: r.path, value: compiled(r) })));
  return (req, res, next) => {
    let found: ReturnType<typeof table.match>;
    try {
      found = table.match(req.method ?? 'GET', req.url ?? '/');
      if (found.kind === 'route') {
        (req as PersonRequest).params = found.params;
        found.value(req, res);
      }
      // OPTIONS on a known path lists its methods (as Express's router did); any other miss is the caller's
      // (the service's JSON 404).
      else if (found.kind === 'other-methods' && req.method === 'OPTIONS') sendAllow(res, found.allow);
      else next();
    } catch (err) {
      send(req, res, err);
    }
  };
}
