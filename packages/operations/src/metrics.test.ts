// /metrics over real HTTP, read back with a Prometheus text parser: the token gate and the counters moving.

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestCore, seedConnection, seedUser, type TestCore } from '@screen-service/test-kit';
import express from 'express';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServiceMetrics, type ServiceMetrics } from './metrics.js';
import { metricsHandler } from './metrics-handler.js';
import { mountOperations } from './server-kit.js';

const TOKEN = 'a-metrics-token-of-some-length';
let core: TestCore;
let metrics: ServiceMetrics;
let server: Server;
let base: string;

beforeEach(async () => {
  core = createTestCore({ clockMode: 'running' });
  metrics = createServiceMetrics({
    pushQueueDepth: () => 7,
    databaseBytes: () => 4096,
    processMetrics: false,
  });
  const app = express();
  app.use(metrics.requests);
  mountOperations(app, { db: core.db, metrics, metricsToken: TOKEN });
  app.get('/things/:id', (_req, res) => {
    res.json({});
  });
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await new Promise((r) => server.close(r));
  core.close();
});

async function scrape() {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const families = parsePrometheusTextFormat(await res.text());
  const value = (name: string, labels: Record<string, string> = {}) => {
    const fam = families.find((f) => f.name === name);
    const sample = fam?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
    return sample;
  };
  return {
    families,
    value,
    num: (name: string, labels?: Record<string, string>) => Number(value(name, labels)?.value ?? 0),
  };
}

describe('GET /metrics', () => {
  it('needs the bearer token; a wrong or missing one gets 401', async () => {
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    const wrong = await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    expect(() => metricsHandler(metrics.registry, 'short')).toThrow(/at least 16/);
  });

  it('requests count by route and status; gauges read their sources at scrape time', async () => {
    for (let i = 0; i < 3; i++) await fetch(`${base}/things/${i}`);
    await fetch(`${base}/readyz`);
    await fetch(`${base}/functions/v1/svc-mcp/x`);
    const m = await scrape();
    expect(m.num('svc_http_requests_total', { route: '/things/:id', status: '200' })).toBe(3);
    expect(m.num('svc_http_requests_total', { route: '/readyz', status: '200' })).toBe(1);
    expect(m.num('svc_http_requests_total', { route: '/functions/v1/svc-mcp', status: '404' })).toBe(1);
    expect(m.num('svc_push_queue_depth')).toBe(7);
    expect(m.num('svc_database_bytes')).toBe(4096);
  });

  it('tool calls by tool and outcome, waiters while svc_answers waits, wake latency, streams, push and housekeeping', async () => {
    const user = await seedUser(core.store);
    const { token } = await seedConnection(core.store, user.id, ['bot']);
    const principal = await core.connectionAuth.verify(token);
    const ops = metrics.instrumentThreadOps(core.threadOps);
    await ops.say(principal, { text: 'hello' });
    await ops.say(principal, { text: '' }).catch(() => {});
    const waiting = ops.answers(principal, { wait: 5 });
    await new Promise((r) => setTimeout(r, 50));
    expect((await scrape()).num('svc_answers_waiters')).toBe(1);
    const agentId = (await core.store.agents.listByUser(user.id))[0]!.id;
    await core.threads.say(user.id, agentId, { text: 'hi back' });
    expect((await waiting).answers).toHaveLength(1);

    const stop = metrics.instrumentStreams(core.notifier).subscribe(user.id, () => {});
    metrics.onPushEvent({ type: 'gone', subscriptionId: 's', httpStatus: 410 });
    metrics.onHousekeeping({ name: 'relay-retention', at: 0, removed: 4, skipped: false, ms: 1 });
    const m = await scrape();
    expect(m.num('svc_tool_calls_total', { tool: 'svc_say', outcome: 'ok' })).toBe(1);
    expect(m.num('svc_tool_calls_total', { tool: 'svc_say', outcome: 'invalid_input' })).toBe(1);
    expect(m.num('svc_tool_calls_total', { tool: 'svc_answers', outcome: 'ok' })).toBe(1);
    expect(m.num('svc_answers_waiters')).toBe(0);
    expect(Number(m.value('svc_answers_wake_seconds')?.count)).toBe(1);
    expect(m.num('svc_open_streams')).toBe(1);
    expect(m.num('svc_push_events_total', { outcome: 'gone' })).toBe(1);
    expect(m.num('svc_housekeeping_removed_total', { job: 'relay-retention' })).toBe(4);
    stop();
    stop();
    expect((await scrape()).num('svc_open_streams')).toBe(0);
  });
});
