// The HTTP adapter: Express routers for `{oauth_url}` and for the metadata under `{mcp_url}`. Parsing,
// headers, cookies, rate buckets and error bodies live here; every decision is in the OAuthServer.

import { jsonBody, type OAuthHttpError, sendOAuthError, toOAuthError } from '@screen-service/http-kit';
import {
  type LimitStore,
  memoryLimits,
  type RateLimiter,
  type RateLimitOptions,
} from '@screen-service/registry/kernel';
import { MOUNTS } from '@screen-service/registry/mounts';
import express, {
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
  type Router,
} from 'express';
import { readClientCredentials } from './client-auth.js';
import { isOAuthError, OAuthError } from './errors.js';
import { pathInsertedIssuerMetadataPaths, pathInsertedMetadataPath } from './metadata.js';
import type { OAuthServer } from './oauth-server.js';

/** Per client address: registrations, authorization starts, token and revocation calls, consent-page calls. */
export interface OAuthRateLimits {
  register: RateLimitOptions | RateLimiter;
  authorize: RateLimitOptions | RateLimiter;
  token: RateLimitOptions | RateLimiter;
  consent: RateLimitOptions | RateLimiter;
}

export const OAUTH_RATE_DEFAULTS: Readonly<Record<keyof OAuthRateLimits, RateLimitOptions>> = {
  register: { burst: 30, perMinute: 0.5 },
  authorize: { burst: 30, perMinute: 30 },
  token: { burst: 60, perMinute: 60 },
  consent: { burst: 120, perMinute: 120 },
};

export interface OAuthRouterOptions {
  oauth: OAuthServer;
  rateLimits?: Partial<OAuthRateLimits>;
  /** Where the buckets count (shared by every instance on PostgreSQL); default in-process. */
  limits?: LimitStore;
  /** Called with unexpected errors (answered 500 server_error). */
  onError?: (err: unknown) => void;
}

const COOKIE = 'svc_oauth';

function limiter(v: RateLimitOptions | RateLimiter, name: string, store: LimitStore): RateLimiter {
  return typeof (v as RateLimiter).take === 'function'
    ? (v as RateLimiter)
    : store.rateLimiter(`oauth-${name}`, v as RateLimitOptions);
}

/** An OAuth refusal for the wire: its own code, or http-kit's one mapping for anything else. */
function toWire(err: unknown): OAuthHttpError {
  return isOAuthError(err) ? { status: err.status, body: err.toJSON() } : toOAuthError(err);
}

/**
 * Sends a refusal as RFC 6749 JSON (no-store), as a redirect to the client for authorize errors that go back
 * to it, or as a small page when a person's browser asked. Returns the status (log 500s).
 */
function sendError(req: Request, res: Response, err: unknown, asPage = false): number {
  const wire = toWire(err);
  if (isOAuthError(err) && err.redirect) {
    res.setHeader('cache-control', 'no-store');
    res.redirect(302, err.redirect);
    return 302;
  }
  if (asPage && !res.headersSent && req.accepts(['json', 'html']) === 'html') {
    res.setHeader('cache-control', 'no-store');
    res.status(wire.status).type('html').send(errorPage(wire.body.error, wire.body.error_description));
    return wire.status;
  }
  // Basic credentials that failed get the Basic challenge back (RFC 6749 section 5.2).
  const basic = /^\s*basic\s/i.test(req.headers.authorization ?? '');
  sendOAuthError(res, wire, err, basic ? 'Basic realm="svc-oauth", charset="UTF-8"' : null);
  return wire.status;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function errorPage(code: string, description: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Sign-in problem · Screen Service</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1f1d2b}
@media (prefers-color-scheme:dark){body{background:#15141b;color:#eeeef3}}code{font-size:.9em}</style></head>
<body><h1>This sign-in cannot go on</h1><p>${escapeHtml(description)}</p><p><small>Error <code>${code}</code></small></p></body></html>`;
}

function readCookie(req: Request): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === COOKIE) return v.join('=');
  }
  return undefined;
}

function cors(res: Response): void {
  res.setHeader('access-control-allow-origin', '*');
  res.setHeader('access-control-allow-methods', 'GET, POST, OPTIONS');
  res.setHeader('access-control-allow-headers', 'authorization, content-type, mcp-protocol-version');
  res.setHeader('access-control-max-age', '600');
}

/** A discovery document: open to any origin, cacheable for five minutes. */
function sendMetadata(body: () => unknown) {
  return (_req: Request, res: Response) => {
    cors(res);
    res.setHeader('cache-control', 'public, max-age=300');
    res.json(body());
  };
}

function withCors(_req: Request, res: Response, next: NextFunction): void {
  cors(res);
  next();
}

type Handler = (req: Request, res: Response) => Promise<void>;

/** What the endpoint groups share: the server, the rate-limited handler wrapper and the body readers. */
interface RouteKit {
  oauth: OAuthServer;
  handle: (
    bucket: 'register' | 'authorize' | 'token' | 'consent' | null,
    fn: Handler,
    asPage?: boolean,
  ) => Handler;
  form: RequestHandler;
  json: RequestHandler;
  needsForm: (req: Request) => Record<string, unknown>;
  cookiePath: string;
  secure: boolean;
}

/**
 * The authorization server at `{oauth_url}`: metadata, `/register`, `/authorize`, `/token`, `/revoke`, and
 * the consent page's `/requests/:id` endpoints.
 *
 * @example
 * ```ts
 * app.use('/functions/v1/svc-oauth', createOAuthRouter({ oauth }));
 * ```
 */
export function createOAuthRouter(options: OAuthRouterOptions): Router {
  const { oauth } = options;
  const limits = { ...OAUTH_RATE_DEFAULTS, ...options.rateLimits };
  const store = options.limits ?? memoryLimits;
  const buckets = {
    register: limiter(limits.register, 'register', store),
    authorize: limiter(limits.authorize, 'authorize', store),
    token: limiter(limits.token, 'token', store),
    consent: limiter(limits.consent, 'consent', store),
  };
  const cookiePath = `${new URL(oauth.urls.oauthUrl).pathname.replace(/\/+$/, '')}/requests/`;
  const secure = oauth.urls.baseUrl.startsWith('https:');
  const router = express.Router();

  const handle =
    (bucket: keyof typeof buckets | null, fn: Handler, asPage = false) =>
    async (req: Request, res: Response) => {
      try {
        if (bucket) {
          const d = await buckets[bucket].take(req.ip ?? 'unknown');
          if (!d.ok) {
            res.setHeader('retry-after', String(d.retryAfterS));
            throw new OAuthError(
              'temporarily_unavailable',
              `Too many requests from this address; try again in ${d.retryAfterS} s.`,
            );
          }
        }
        await fn(req, res);
      } catch (err) {
        if (sendError(req, res, err, asPage) >= 500) options.onError?.(err);
      }
    };

  const form = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 50 });
  const json = jsonBody({ limit: 32 * 1024 });
  const needsForm = (req: Request) => {
    if (!req.is('application/x-www-form-urlencoded')) {
      throw new OAuthError('invalid_request', 'Send the request as application/x-www-form-urlencoded.');
    }
    return (req.body ?? {}) as Record<string, unknown>;
  };

  router.use((_req, res, next) => {
    res.setHeader('x-content-type-options', 'nosniff');
    next();
  });

  const metadataPaths = ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'];
  const publicPaths = [...metadataPaths, '/jwks', '/register', '/token', '/revoke'];
  router.options(publicPaths, (_req, res) => {
    cors(res);
    res.status(204).end();
  });

  router.get(metadataPaths, sendMetadata(oauth.metadata));
  router.get('/jwks', (_req, res) => {
    cors(res);
    res.json({ keys: [] });
  });

  const kit: RouteKit = { oauth, handle, form, json, needsForm, cookiePath, secure };
  mountClientEndpoints(router, kit);
  mountConsentEndpoints(router, kit);
  mountFallbacks(router, options);
  return router;
}

/** The client-facing endpoints: registration (RFC 7591), authorize, token and revoke (RFC 6749, 7009). */
function mountClientEndpoints(router: Router, kit: RouteKit): void {
  const { oauth, handle, form, json, needsForm, cookiePath, secure } = kit;
  router.post(
    '/register',
    withCors,
    json,
    handle('register', async (req, res) => {
      if (!req.is('application/json')) {
        throw new OAuthError('invalid_client_metadata', 'Send the client metadata as application/json.');
      }
      res.setHeader('cache-control', 'no-store');
      res.status(201).json(await oauth.register(req.body));
    }),
  );

  router.get(
    '/authorize',
    handle(
      'authorize',
      async (req, res) => {
        const started = await oauth.authorize(req.query as Record<string, unknown>);
        res.cookie(COOKIE, started.browserSecret, {
          path: cookiePath + started.requestId,
          httpOnly: true,
          sameSite: 'lax',
          secure,
          maxAge: started.maxAgeS * 1000,
        });
        res.setHeader('cache-control', 'no-store');
        res.redirect(302, started.location);
      },
      true,
    ),
  );

  router.post(
    '/token',
    withCors,
    form,
    handle('token', async (req, res) => {
      const body = needsForm(req);
      const presented = readClientCredentials(req.headers.authorization, body);
      const tokens = await oauth.token(presented, body);
      res.setHeader('cache-control', 'no-store');
      res.setHeader('pragma', 'no-cache');
      res.json(tokens);
    }),
  );

  router.post(
    '/revoke',
    withCors,
    form,
    handle('token', async (req, res) => {
      const body = needsForm(req);
      await oauth.revoke(readClientCredentials(req.headers.authorization, body), body);
      res.setHeader('cache-control', 'no-store');
      res.status(200).end();
    }),
  );
}

/** The sign-in page's endpoints under `/requests/:id`, for the browser that started the request. */
function mountConsentEndpoints(router: Router, kit: RouteKit): void {
  const { oauth, handle, json, cookiePath, secure } = kit;
  router.get(
    '/requests/:id',
    handle('consent', async (req, res) => {
      const wait = Number(req.query.wait ?? 0);
      const gone = new AbortController();
      res.on('close', () => gone.abort());
      const view = await oauth.pageView(
        String(req.params.id),
        readCookie(req),
        Number.isFinite(wait) ? wait : 0,
        gone.signal,
      );
      res.setHeader('cache-control', 'no-store');
      if (!res.writableEnded && !gone.signal.aborted) res.json(view);
    }),
  );
  router.post(
    '/requests/:id/code',
    json,
    handle('consent', async (req, res) => {
      const body = (req.body ?? {}) as { code?: unknown };
      res.setHeader('cache-control', 'no-store');
      res.json(await oauth.enterCode(String(req.params.id), readCookie(req), body.code, req.ip ?? 'unknown'));
    }),
  );
  router.post(
    '/requests/:id/cancel',
    handle('consent', async (req, res) => {
      res.setHeader('cache-control', 'no-store');
      // A bodyless form post from another page of the same site must not cancel a person's sign-in.
      if (!req.is('application/json')) {
        throw new OAuthError('invalid_request', 'Send the cancel as application/json.');
      }
      res.json(await oauth.cancel(String(req.params.id), readCookie(req)));
    }),
  );
  router.get(
    '/requests/:id/finish',
    handle(
      'consent',
      async (req, res) => {
        const location = await oauth.finish(String(req.params.id), readCookie(req));
        res.clearCookie(COOKIE, {
          path: cookiePath + String(req.params.id),
          httpOnly: true,
          sameSite: 'lax',
          secure,
        });
        res.setHeader('cache-control', 'no-store');
        res.redirect(302, location);
      },
      true,
    ),
  );
}

/** 405 and 404 in OAuth's error shape, and the body readers' refusals (RFC 7591 names them on /register). */
function mountFallbacks(router: Router, options: OAuthRouterOptions): void {
  for (const p of ['/register', '/token', '/revoke', '/authorize']) {
    router.all(p, (req, res) => {
      res.setHeader('allow', p === '/authorize' ? 'GET' : 'POST, OPTIONS');
      sendError(
        req,
        res,
        new OAuthError('invalid_request', `${req.method} is not allowed on ${p}.`, { status: 405 }),
      );
    });
  }
  router.use((req, res) => {
    sendError(
      req,
      res,
      new OAuthError('invalid_request', `No OAuth endpoint ${req.method} ${req.path}.`, { status: 404 }),
    );
  });
  // The body readers' refusals (bad JSON or form data, too large, another type) arrive here; on /register
  // they are about the client's metadata (RFC 7591).
  router.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const wire = toOAuthError(err, { bodyLimit: req.path === '/register' ? '32 KB' : '16 KB' });
    if (req.path === '/register' && wire.body.error === 'invalid_request')
      wire.body.error = 'invalid_client_metadata';
    if (wire.status >= 500) options.onError?.(err);
    sendOAuthError(res, wire, err);
  });
}

/**
 * The metadata under `{mcp_url}`: `/.well-known/oauth-protected-resource` (RFC 9728) and the authorization
 * server's documents (`oauth-authorization-server`, `openid-configuration`). Mount it at the MCP path
 * before the tool server.
 *
 * @example
 * ```ts
 * app.use('/functions/v1/svc-mcp', createResourceMetadataRouter({ oauth }));
 * app.get(pathInsertedMetadataPath(mcpUrl), resourceMetadataHandler({ oauth }));
 * ```
 */
export function createResourceMetadataRouter({ oauth }: { oauth: OAuthServer }): Router {
  const router = express.Router();
  router.get('/.well-known/oauth-protected-resource', sendMetadata(oauth.resourceMetadata));
  router.get(
    ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'],
    sendMetadata(oauth.metadata),
  );
  router.options('/.well-known/*rest', (_req, res) => {
    cors(res);
    res.status(204).end();
  });
  return router;
}

/** The protected-resource metadata as one handler, for the RFC 9728 path-inserted location on the host. */
export function resourceMetadataHandler({ oauth }: { oauth: OAuthServer }) {
  return sendMetadata(oauth.resourceMetadata);
}

/**
 * The authorization server's metadata as one handler, for its RFC 8414 path-inserted locations on the host
 * ({@link pathInsertedIssuerMetadataPaths}): clients that read RFC 8414 strictly look there first.
 */
export function issuerMetadataHandler({ oauth }: { oauth: OAuthServer }) {
  return sendMetadata(oauth.metadata);
}

/**
 * Everything OAuth the service mounts, as one router for the host root: the authorization server under
 * `MOUNTS.oauth`, its metadata under the tool server's mount, and the RFC 9728 path-inserted resource
 * metadata for `mcpUrl` and the RFC 8414 path-inserted authorization-server metadata for the issuer. The
 * host's bare root `.well-known` paths stay unanswered. Mount it before the tool server's router.
 */
export function createOAuthMounts(options: OAuthRouterOptions & { mcpUrl: string }): Router {
  const router = express.Router();
  router.use(MOUNTS.oauth, createOAuthRouter(options));
  router.use(MOUNTS.mcp, createResourceMetadataRouter(options));
  router.get(pathInsertedMetadataPath(options.mcpUrl), resourceMetadataHandler(options));
  const issuerPaths = pathInsertedIssuerMetadataPaths(options.oauth.urls.oauthUrl);
  router.get(issuerPaths, issuerMetadataHandler(options));
  router.options(issuerPaths, (_req, res) => {
    cors(res);
    res.status(204).end();
  });
  return router;
}
