// The Express app: health, and the spec's route prefixes. Adapters mount under /functions/v1/svc-*.

import type { RequestListener } from 'node:http';
import { createConnectRouter, TABLES_CALL_OPENAPI_PART } from '@screen-service/connect-api';
import { hostGuard } from '@screen-service/http-kit';
import { createManagementRouter } from '@screen-service/management-api';
import {
  createMcpHandler,
  createMcpRouter,
  type PlainMiddleware,
  withMcpLane,
} from '@screen-service/mcp-server';
import { createOAuthMounts } from '@screen-service/oauth';
import { mountOperations, type ServiceMetrics } from '@screen-service/operations';
import {
  buildOpenApi,
  createJsonFallbacks,
  createPersonRouter,
  personApiServices,
  personRoutes,
} from '@screen-service/person-api';
import { MOUNTS } from '@screen-service/registry/mounts';
import { type ServiceDb as Db, databaseHealth } from '@screen-service/store-sqlite';
import { screenAppResource, securityHeaders, webRoot, webStaticOptions } from '@screen-service/web';
import express, { type Express } from 'express';
import type { Logger } from 'pino';
import type { ServerConfig } from './config.js';
import { createServices, type Services } from './services.js';

export interface AppDeps {
  config: ServerConfig;
  db: Db;
  logger: Logger;
  version?: string;
  /** Built from config and db when absent. */
  services?: Services;
  metrics?: ServiceMetrics | null;
}

/** The Express app, and the request listener to serve: the app, with the tool server's POST before it. */
export interface ServiceApp {
  app: Express;
  listener: RequestListener;
}

export function createApp(deps: AppDeps): ServiceApp {
  const { config, db, logger, version = '0.0.0', services, metrics } = deps;
  const app = express();
  app.disable('x-powered-by');
  // Forwarded addresses count only from configured proxies (SVC_TRUST_PROXY); every route checks Host.
  app.set('trust proxy', config.guards?.trustProxy ?? false);
  // Runs before every route; the MCP lane runs it too (ADR 0218, the list at the end).
  const headers = securityHeaders({ imageCdn: config.imageCdn });
  app.use(headers);
  const svc = services ?? createServices(config, db);
  const log = (what: string) => (err: unknown) => logger.error({ err }, what);
  // /readyz, and with SVC_METRICS_TOKEN the request counter and /metrics (docs/operations.md).
  mountOperations(app, { db, metrics, metricsToken: config.metricsToken, shared: svc.postgres?.readiness });

  app.get('/healthz', async (_req, res) => {
    const database = svc.postgres ? await svc.postgres.health() : databaseHealth(db);
    const body = { ok: database.ok, service: 'screen-service', version, base_url: config.baseUrl, database };
    res.status(database.ok ? 200 : 503).json(body);
  });
  const doc = { baseUrl: config.baseUrl, version, extra: TABLES_CALL_OPENAPI_PART };
  const openapi = buildOpenApi(personRoutes, doc);

  const guard = hostGuard(config.baseUrl);
  app.use(guard); // after /healthz: probes call the pod by its own address
  app.get('/openapi.json', (_req, res) => {
    res.json(openapi);
  });
  app.use(
    MOUNTS.connect,
    createConnectRouter({
      pairing: svc.pairing,
      hosts: svc.hosts,
      hostAuth: svc.hostAuth,
      transport: svc.hostTransport,
      tables: { tables: svc.tables, auth: svc.anyConnectionAuth },
      onError: log('connect request failed'),
    }),
  );
  app.use(
    MOUNTS.agents,
    createManagementRouter({ management: svc.management, onError: log('management failed') }),
  );
  app.use(
    MOUNTS.app,
    createPersonRouter({
      services: personApiServices(svc, svc.oauth, svc.native, { imageCdn: config.imageCdn }),
      checkResponses: config.checkResponses ?? false,
      ...(config.guards?.streamsPerAccount ? { streamsPerAccount: config.guards.streamsPerAccount } : {}),
      shutdown: svc.stopping.signal,
      onError: (err, req) => logger.error({ err, path: req.path }, 'request failed'),
    }),
  );
  // OAuth 2.1 (doc1): the authorization server and its metadata (before the tool server, which it guards).
  const oauthMounts = { oauth: svc.oauth, mcpUrl: svc.mcpUrl, limits: svc.limits };
  app.use(createOAuthMounts({ ...oauthMounts, onError: log('oauth request failed') }));
  const mcp = createMcpHandler({
    ops: svc.threadOps,
    tables: svc.tables,
    auth: svc.connectionAuth,
    mcpUrl: svc.mcpUrl,
    rateLimit: config.mcpRate,
    limits: svc.limits,
    version,
    screenApp: screenAppResource(config),
    onError: log('tool server request failed'),
  });
  app.use(MOUNTS.mcp, createMcpRouter(mcp));
  // The person's web app (apps/web) at the base URL.
  app.use(express.static(webRoot, webStaticOptions()));

  app.use(...createJsonFallbacks((err, path) => logger.error({ err, path }, 'request failed')));
  // The steps the app runs before the tool server for this request, in its order (the probes' routes,
  // mounted between them, do not match it): a step added above for every route belongs here too.
  const before: PlainMiddleware[] = [headers, ...(metrics ? [metrics.requests] : []), guard];
  return { app, listener: withMcpLane(app, MOUNTS.mcp, mcp, before) };
}
