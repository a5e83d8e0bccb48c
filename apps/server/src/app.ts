// The service's one request listener (ADR 0242): the steps every request takes, then the tool server's
// handler for its path or the Express app (health, and the spec's mounts under /functions/v1/svc-*).

import type { RequestListener } from 'node:http';
import { createConnectRouter, TABLES_CALL_OPENAPI_PART } from '@screen-service/connect-api';
import { createServiceListener, hostGuard, type Step } from '@screen-service/http-kit';
import { createManagementRouter, MANAGEMENT_RATE } from '@screen-service/management-api';
import { createMcpHandler } from '@screen-service/mcp-server';
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
import express from 'express';
import type { Logger } from 'pino';
import proxyAddr from 'proxy-addr';
import type { ServerConfig } from './config.js';
import { answerByPath } from './refusals.js';
import { createServices, type Services } from './services.js';

export interface AppDeps {
  config: ServerConfig;
  /** The SQLite file's connection; null on PostgreSQL (then `services` carries it). */
  db: Db | null;
  logger: Logger;
  version?: string;
  /** Built from config and db when absent. */
  services?: Services;
  metrics?: ServiceMetrics | null;
}

/** What to serve: the one request listener (the Express app sits behind it; serve nothing else). */
export interface ServiceApp {
  listener: RequestListener;
}

export function createApp(deps: AppDeps): ServiceApp {
  const { config, db, logger, version = '0.0.0', services, metrics } = deps;
  const app = express();
  app.disable('x-powered-by');
  // Forwarded addresses count only from configured proxies (SVC_TRUST_PROXY); every route checks Host.
  app.set('trust proxy', config.guards?.trustProxy ?? false);
  const svc = services ?? createServices(config, db);
  const log = (what: string) => (err: unknown) => logger.error({ err }, what);
  // Probes call the pod by its address: the probe routes take an IP address as Host too, never another
  // name (issue 46: a rebound DNS name reached /metrics and /healthz).
  app.use(
    ['/healthz', '/readyz', '/metrics'],
    hostGuard(config.baseUrl, { allowAddresses: true, refuse: answerByPath }),
  );
  // /readyz, and with SVC_METRICS_TOKEN /metrics (docs/operations.md); the counter is a step (below).
  mountOperations(app, { db, metrics, metricsToken: config.metricsToken, shared: svc.postgres?.readiness });

  app.get('/healthz', async (_req, res) => {
    const database = svc.postgres
      ? await svc.postgres.health()
      : db
        ? databaseHealth(db)
        : { ok: false, error: 'no database' };
    const body = { ok: database.ok, service: 'screen-service', version, base_url: config.baseUrl, database };
    res.status(database.ok ? 200 : 503).json(body);
  });
  const doc = { baseUrl: config.baseUrl, version, extra: TABLES_CALL_OPENAPI_PART };
  const openapi = buildOpenApi(personRoutes, doc);

  // Every other route: the configured name only. The tool server checks its own Host.
  const namedHost = hostGuard(config.baseUrl, { refuse: answerByPath });
  app.use(namedHost);
  // The person's API: the phone's requests (taps, replies, pages) are most of the traffic. It is served by the
  // listener below, before Express: its requests keep Node's own objects (ADR 0303).
  const person = createPersonRouter({
    services: personApiServices(svc, svc.oauth, svc.native, { imageCdn: config.imageCdn }),
    checkResponses: config.checkResponses ?? false,
    ...(config.guards?.streamsPerAccount ? { streamsPerAccount: config.guards.streamsPerAccount } : {}),
    shutdown: svc.stopping.signal,
    onError: (err, req) => logger.error({ err, path: req.url }, 'request failed'),
    // Express's own rule for req.ip: forwarded addresses count only from the trusted proxies (SVC_TRUST_PROXY).
    clientAddr: (req) => proxyAddr(req, app.get('trust proxy fn')),
  });
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
    createManagementRouter({
      management: svc.management,
      receipts: (userId, agentId, opts) => svc.receipts.exportOwned(userId, agentId, opts),
      onError: log('management failed'),
      rateLimit: svc.limits.rateLimiter('management', config.managementRate ?? MANAGEMENT_RATE),
    }),
  );
  // OAuth 2.1 (doc1): the authorization server, and its metadata under the tool server's path.
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
  // The person's web app (apps/web) at the base URL.
  app.use(express.static(webRoot, webStaticOptions()));

  app.use(...createJsonFallbacks((err, path) => logger.error({ err, path }, 'request failed')));
  // Every request, whichever handler answers it, takes these steps once, here and nowhere else.
  const steps: Step[] = [
    securityHeaders({ imageCdn: config.imageCdn }),
    ...(metrics ? [metrics.requests] : []),
  ];
  const listener = createServiceListener({
    steps,
    routes: { [MOUNTS.mcp]: mcp },
    prefixes: { [MOUNTS.app]: (req, res, next) => namedHost(req, res, () => person(req, res, next)) },
    fallback: app,
    onError: (err, req, res) => {
      logger.error({ err, path: req.url }, 'request failed');
      answerByPath(err, req, res);
    },
  });
  return { listener };
}
