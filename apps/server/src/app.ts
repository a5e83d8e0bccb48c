// The Express app: health, and the spec's route prefixes. Adapters mount under /functions/v1/svc-*.
import { createConnectRouter, TABLES_CALL_OPENAPI } from '@screen-service/connect-api';
import { createManagementRouter } from '@screen-service/management-api';
import { createMcpRouter } from '@screen-service/mcp-server';
import {
  createOAuthRouter,
  createResourceMetadataRouter,
  pathInsertedMetadataPath,
  resourceMetadataHandler,
} from '@screen-service/oauth';
import {
  buildOpenApi,
  createPersonRouter,
  personApiServices,
  personRoutes,
} from '@screen-service/person-api';
import { hostGuard, MOUNTS, toHttpError } from '@screen-service/service-core';
import { type ServiceDb as Db, schemaVersion } from '@screen-service/service-core/sqlite';
import { readScreenApp, securityHeaders, webRoot } from '@screen-service/web';
import express, { type ErrorRequestHandler, type Express } from 'express';
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
}

export function createApp({ config, db, logger, version = '0.0.0', services }: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  // Forwarded addresses count only from configured proxies (SVC_TRUST_PROXY); every route checks Host.
  app.set('trust proxy', config.guards?.trustProxy ?? false);
  app.use(securityHeaders());
  const svc = services ?? createServices(config, db);

  app.get('/healthz', (_req, res) => {
    let database: { ok: boolean; schema_version?: number; error?: string };
    try {
      db.prepare('SELECT 1').get();
      database = { ok: true, schema_version: schemaVersion(db) };
    } catch (err) {
      database = { ok: false, error: (err as Error).message };
    }
    res.status(database.ok ? 200 : 503).json({
      ok: database.ok,
      service: 'screen-service',
      version,
      base_url: config.baseUrl,
      database,
    });
  });

  app.use(hostGuard(config.baseUrl)); // after /healthz: probes call the pod by its own address

  const openapi = withTablesCall(buildOpenApi(personRoutes, { baseUrl: config.baseUrl, version }));
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
      onError: (err) => logger.error({ err }, 'connect request failed'),
    }),
  );
  app.use(
    MOUNTS.agents,
    createManagementRouter({
      management: svc.management,
      onError: (err) => logger.error({ err }, 'management request failed'),
    }),
  );
  app.use(
    MOUNTS.app,
    createPersonRouter({
      services: personApiServices(svc, svc.oauth),
      checkResponses: config.checkResponses ?? false,
      ...(config.guards?.streamsPerAccount ? { streamsPerAccount: config.guards.streamsPerAccount } : {}),
      shutdown: svc.stopping.signal,
      onError: (err, req) => logger.error({ err, path: req.path }, 'request failed'),
    }),
  );
  // OAuth 2.1 (doc1): the authorization server, its metadata under the tool server's URL, and the
  // RFC 9728 path-inserted resource metadata. The host's bare root .well-known paths stay unanswered.
  app.use(
    MOUNTS.oauth,
    createOAuthRouter({
      oauth: svc.oauth,
      onError: (err) => logger.error({ err }, 'oauth request failed'),
    }),
  );
  app.use(MOUNTS.mcp, createResourceMetadataRouter({ oauth: svc.oauth }));
  app.get(pathInsertedMetadataPath(svc.mcpUrl), resourceMetadataHandler({ oauth: svc.oauth }));
  app.use(
    MOUNTS.mcp,
    createMcpRouter({
      ops: svc.threadOps,
      tables: svc.tables,
      auth: svc.connectionAuth,
      mcpUrl: svc.mcpUrl,
      rateLimit: config.mcpRate,
      version,
      // The in-chat view built by apps/web; images only from the service's own origin (photo links).
      screenApp: {
        html: readScreenApp(),
        resourceDomains: [config.baseUrl],
        ...(config.imageCdn ? { imageCdn: config.imageCdn } : {}),
        description: 'Shows the screen an AI app put in the thread; taps go back as the next message.',
        prefersBorder: true,
      },
      onError: (err) => logger.error({ err }, 'tool server request failed'),
    }),
  );
  // The person's web app (apps/web) at the base URL; the service worker is never cached by HTTP.
  app.use(
    express.static(webRoot, {
      maxAge: '5m',
      // `{base}/connect` is the consent page (connect.html).
      extensions: ['html'],
      setHeaders: (res, file) => {
        if (file.endsWith('sw.js')) res.setHeader('cache-control', 'no-cache');
      },
    }),
  );

  app.use((req, res) => {
    res.status(404).json({ error: 'not_found', message: `No route for ${req.method} ${req.path}` });
  });

  // Anything that escaped a router (a body parser's failure included) gets the one error contract.
  const onError: ErrorRequestHandler = (err, req, res, _next) => {
    const wire = toHttpError(err);
    if (wire.status >= 500) logger.error({ err, path: req.path }, 'request failed');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.status(wire.status).json(wire.body);
  };
  app.use(onError);
  return app;
}

/** Adds the tables call (`POST {connect_url}/tables`) to the person's API document. */
function withTablesCall(doc: Record<string, unknown>) {
  const paths = doc.paths as Record<string, unknown>;
  paths[`${MOUNTS.connect}/tables`] = TABLES_CALL_OPENAPI.path;
  const schemes = (doc.components as { securitySchemes: Record<string, unknown> }).securitySchemes;
  schemes.connectionToken = TABLES_CALL_OPENAPI.securityScheme;
  return doc;
}
