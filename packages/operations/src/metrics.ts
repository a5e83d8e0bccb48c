// The service's Prometheus metrics (prom-client, its own registry): what is counted and where it is fed.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HousekeepingRun } from '@screen-service/core/housekeeping';
import type { ThreadOps } from '@screen-service/core/threads';
import type { PushEvent } from '@screen-service/push';
import type { Notifier } from '@screen-service/registry/kernel';
import type { Request } from 'express';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** What the request counter reads of a request: node's, plus Express's route fields when there. */
export type CountedRequest = IncomingMessage & Partial<Pick<Request, 'route' | 'baseUrl' | 'originalUrl'>>;

/** Gauges read at scrape time (cheap queries; a scrape happens every 15 s or so). */
export interface MetricsSources {
  /** Rows waiting in the push outbox (a Promise for a database read over the network, e.g. PostgreSQL). */
  pushQueueDepth?: () => number | Promise<number>;
  /** Bytes of the database: the SQLite file and its WAL, or PostgreSQL's `pg_database_size`. */
  databaseBytes?: () => number | Promise<number>;
}

/** Options of {@link createServiceMetrics}. */
export interface ServiceMetricsOptions extends MetricsSources {
  /** Also export Node's process metrics (CPU, memory, event loop lag); default true. */
  processMetrics?: boolean;
  /** `svc_answers` wake latency buckets in seconds. */
  wakeBuckets?: number[];
}

/** The metrics of one process and the hooks that feed them. */
export interface ServiceMetrics {
  registry: Registry;
  /**
   * Middleware counting requests by route and status (mount it first). Express's or plain node:http: a
   * request without Express's route fields is counted by its `/functions/v1/svc-*` mount.
   */
  requests: (req: CountedRequest, res: ServerResponse, next: () => void) => void;
  /** The tool server's operations with each call counted by tool and outcome, and `answers` waiters tracked. */
  instrumentThreadOps<T extends ThreadOps>(ops: T): T;
  /** A notifier whose subscriptions count as open streams (give it to the person's API). */
  instrumentStreams<N extends Pick<Notifier, 'subscribe'>>(notifier: N): N;
  /** Both of the above over a core's own: spread the result over the services the adapters get. */
  instrumentCore<T extends ThreadOps, N extends Pick<Notifier, 'subscribe'>>(core: {
    threadOps: T;
    notifier: N;
  }): { threadOps: T; notifier: N };
  /** Feed of the push sender's events (failures, gone devices). */
  onPushEvent(event: PushEvent): void;
  /** Feed of the housekeeping scheduler's runs. */
  onHousekeeping(run: HousekeepingRun): void;
}

const TOOLS = ['show', 'say', 'answers', 'threads', 'tap'] as const;

/**
 * Builds the registry and its feeds.
 *
 * @example
 * ```ts
 * const metrics = createServiceMetrics({ pushQueueDepth: () => countOutbox(db) });
 * app.use(metrics.requests);
 * app.get('/metrics', metricsHandler(metrics.registry, token));
 * ```
 */
export function createServiceMetrics(options: ServiceMetricsOptions = {}): ServiceMetrics {
  const registry = new Registry();
  if (options.processMetrics !== false) collectDefaultMetrics({ register: registry, prefix: 'svc_' });
  const requests = new Counter({
    name: 'svc_http_requests_total',
    help: 'HTTP requests by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const toolCalls = new Counter({
    name: 'svc_tool_calls_total',
    help: 'Tool calls by tool and outcome (ok, or the lower-case error code)',
    labelNames: ['tool', 'outcome'] as const,
    registers: [registry],
  });
  const waiters = new Gauge({
    name: 'svc_answers_waiters',
    help: 'svc_answers calls waiting for the person right now',
    registers: [registry],
  });
  const streams = new Gauge({
    name: 'svc_open_streams',
    help: "Open person's event streams (GET /stream)",
    registers: [registry],
  });
  const wake = new Histogram({
    name: 'svc_answers_wake_seconds',
    help: "From the person's answer being written to the waiting svc_answers call returning it",
    buckets: options.wakeBuckets ?? [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [registry],
  });
  const push = new Counter({
    name: 'svc_push_events_total',
    help: 'Push sender outcomes: sent, gone (404/410, subscription removed), retry, dropped, error',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const removed = new Counter({
    name: 'svc_housekeeping_removed_total',
    help: 'Rows or files removed by housekeeping, by job',
    labelNames: ['job'] as const,
    registers: [registry],
  });
  const failedJobs = new Counter({
    name: 'svc_housekeeping_failures_total',
    help: 'Housekeeping runs that failed, by job',
    labelNames: ['job'] as const,
    registers: [registry],
  });
  const { pushQueueDepth, databaseBytes } = options;
  new Gauge({
    name: 'svc_push_queue_depth',
    help: 'Rows waiting in the push outbox',
    registers: [registry],
    async collect() {
      if (pushQueueDepth) this.set(await pushQueueDepth());
    },
  });
  new Gauge({
    name: 'svc_database_bytes',
    help: 'Size of the database file and its write-ahead log',
    registers: [registry],
    async collect() {
      if (databaseBytes) this.set(await databaseBytes());
    },
  });

  return {
    registry,
    requests(req, res, next) {
      res.on('finish', () => {
        requests.inc({ method: req.method, route: routeOf(req, res), status: String(res.statusCode) });
      });
      next();
    },
    instrumentThreadOps(ops) {
      const wrapped = { ...ops } as Record<string, unknown>;
      for (const tool of TOOLS) {
        const fn = ops[tool] as (...args: unknown[]) => Promise<unknown>;
        wrapped[tool] = async (...args: unknown[]) => {
          const started = Date.now();
          if (tool === 'answers') waiters.inc();
          try {
            const result = await fn.apply(ops, args);
            toolCalls.inc({ tool: `svc_${tool}`, outcome: 'ok' });
            if (tool === 'answers') observeWake(result, started);
            return result;
          } catch (err) {
            toolCalls.inc({ tool: `svc_${tool}`, outcome: outcomeOf(err) });
            throw err;
          } finally {
            if (tool === 'answers') waiters.dec();
          }
        };
      }
      return wrapped as typeof ops;
    },
    instrumentStreams(notifier) {
      return {
        ...notifier,
        subscribe: (userId: string, listener: Parameters<Notifier['subscribe']>[1]) => {
          const stop = notifier.subscribe(userId, listener);
          streams.inc();
          let open = true;
          return () => {
            if (open) streams.dec();
            open = false;
            stop();
          };
        },
      };
    },
    instrumentCore(core) {
      return {
        threadOps: this.instrumentThreadOps(core.threadOps),
        notifier: this.instrumentStreams(core.notifier),
      };
    },
    onPushEvent(event) {
      push.inc({ outcome: event.type });
    },
    onHousekeeping(run) {
      if (run.error) failedJobs.inc({ job: run.name });
      else if (run.removed > 0) removed.inc({ job: run.name }, run.removed);
    },
  };

  // Only answers written after the call began were waited for; older ones were already there.
  function observeWake(result: unknown, started: number) {
    const answers = (result as { answers?: { at?: string }[] }).answers ?? [];
    const now = Date.now();
    for (const a of answers) {
      const at = a.at ? Date.parse(a.at) : Number.NaN;
      if (at >= started) wake.observe(Math.max(0, now - at) / 1000);
    }
  }
}

/** A bounded route label: the matched Express route, else the spec's mount, else `static` or `unmatched`. */
function routeOf(req: CountedRequest, res: ServerResponse): string {
  if (req.route?.path && typeof req.route.path === 'string') {
    return `${req.baseUrl ?? ''}${req.route.path}`.replace(/(.)\/$/, '$1');
  }
  const mount = /^\/functions\/v1\/svc-[a-z]+/.exec(req.originalUrl ?? req.url ?? '')?.[0];
  if (mount) return mount;
  if (res.statusCode === 404) return 'unmatched';
  return 'static';
}

function outcomeOf(err: unknown): string {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && /^[A-Z_]+$/.test(code) ? code.toLowerCase() : 'error';
}
