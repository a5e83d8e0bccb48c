import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fetch } from 'undici';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createPool, type WarmPool } from './pool.js';
import { createTracer, type Tracer } from './trace.js';

let server: http.Server;
let base: string;
let pool: WarmPool;
let tracer: Tracer | undefined;
// The tracer's clock: `/slow?ms=N` moves it N ms on before answering, so phases do not depend on the machine.
let clock = 0;
const now = () => clock;

beforeEach(async () => {
  server = http.createServer((req, res) => {
    clock += Number(new URL(req.url ?? '/', 'http://x').searchParams.get('ms') ?? 0);
    req.resume();
    res.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  pool = createPool({ size: 2 });
});

afterEach(async () => {
  tracer?.stop();
  await pool.close();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

// Like the driver's fetch: every request carries the tag of the call it belongs to.
const get = async (path: string) =>
  (await fetch(`${base}${path}`, { dispatcher: pool.dispatcher, headers: tracer?.headers() ?? {} })).text();

it('keeps the slowest tagged requests with their phases, step and connection', async () => {
  tracer = createTracer({ keep: 2, now });
  await pool.warm(`${base}/healthz`); // untagged: not traced
  tracer.startRun();
  const t = tracer;
  await t.within({ step: 'show', client: 1 }, () => get('/slow?ms=5'));
  await t.within({ step: 'tap', client: 2 }, () => get('/slow?ms=150'));
  await t.within({ step: 'answers', client: 3 }, () => get('/slow?ms=80'));
  await get('/untagged');
  expect(t.traced()).toBe(3);
  const lines = t.slowest();
  expect(lines.map((l) => [l.step, l.client, l.method, l.path, l.outcome])).toEqual([
    ['tap', 2, 'GET', '/slow?ms=150', 'http_200'],
    ['answers', 3, 'GET', '/slow?ms=80', 'http_200'],
  ]);
  const [slowest] = lines;
  expect(slowest).toMatchObject({ queueMs: 0, answerMs: 150, bodyMs: 0, totalMs: 150, startMs: 5 });
  expect(slowest?.newConnection).toBe(false); // the warm-up opened it before the run
  expect(slowest?.localPort).toBeGreaterThan(0);
});

it('tags requests that waited in the pool for a free connection', async () => {
  pool = createPool({ size: 1 });
  tracer = createTracer({ now });
  tracer.startRun();
  const t = tracer;
  await Promise.all(
    [0, 1, 2, 3].map((client) => t.within({ step: 'tap', client }, () => get(`/slow?ms=${client}`))),
  );
  expect(t.traced()).toBe(4);
  expect(
    t
      .slowest()
      .map((l) => [l.client, l.path])
      .sort(),
  ).toEqual([
    [0, '/slow?ms=0'],
    [1, '/slow?ms=1'],
    [2, '/slow?ms=2'],
    [3, '/slow?ms=3'],
  ]);
});

it('marks a request on a connection opened during the run', async () => {
  tracer = createTracer({ now });
  tracer.startRun();
  const t = tracer;
  await t.within({ step: 'show', client: 0 }, () => get('/x'));
  expect(t.slowest()[0]?.newConnection).toBe(true);
});

it('records failures by their code', async () => {
  tracer = createTracer({ now });
  tracer.startRun();
  const t = tracer;
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await expect(t.within({ step: 'tap', client: 0 }, () => get('/x'))).rejects.toThrow();
  expect(t.slowest()[0]?.outcome).toBe('ECONNREFUSED');
  server = http.createServer(); // afterEach closes it
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
});
