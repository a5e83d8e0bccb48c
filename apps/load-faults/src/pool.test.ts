import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createPool, type WarmPool } from './pool.js';

// A real server on 127.0.0.1 that counts the connections it accepts.
let server: http.Server;
let base: string;
let accepted = 0;
let pool: WarmPool | undefined;

beforeEach(async () => {
  accepted = 0;
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  server.on('connection', () => accepted++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await pool?.close();
  pool = undefined;
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const calls = (n: number) =>
  Promise.all(
    Array.from({ length: n }, async () => {
      const r = await request(`${base}/x`, { method: 'POST', body: '{}', dispatcher: pool?.dispatcher });
      await r.body.dump();
      return r.statusCode;
    }),
  );

it('opens every connection during the warm-up, so the run opens none', async () => {
  pool = createPool({ size: 8 });
  const warm = await pool.warm(`${base}/healthz`);
  expect(warm).toMatchObject({ open: 8, opened: 8, errors: {} });
  expect(accepted).toBe(8);
  pool.startRun();
  // More callers than connections: they queue in the pool instead of opening more.
  expect(await calls(20)).toEqual(Array(20).fill(200));
  for (let i = 0; i < 5; i++) await calls(8);
  expect(accepted).toBe(8);
  expect(pool.counts()).toEqual({
    size: 8,
    openedBefore: 8,
    openedDuringRun: 0,
    closedDuringRun: {},
    connectErrors: {},
    open: 8,
  });
});

it('tops up connections opened before the warm-up', async () => {
  pool = createPool({ size: 6 });
  await calls(2); // set-up traffic (the MCP clients' initialize) opened two
  expect(pool.counts().open).toBe(2);
  expect(await pool.warm(`${base}/healthz`)).toMatchObject({ open: 6, opened: 4 });
  expect(accepted).toBe(6);
});

it('counts connections the server closed during the run and the ones opened to replace them', async () => {
  pool = createPool({ size: 4 });
  await pool.warm(`${base}/healthz`);
  pool.startRun();
  server.closeIdleConnections();
  await expect.poll(() => pool?.counts().open).toBe(0);
  await calls(4);
  const counts = pool.counts();
  expect(counts.openedBefore).toBe(4);
  expect(counts.openedDuringRun).toBe(4);
  expect(Object.values(counts.closedDuringRun).reduce((a, b) => a + b, 0)).toBe(4);
  expect(accepted).toBe(8);
});

it('reports connects that fail', async () => {
  const port = (server.address() as AddressInfo).port;
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  pool = createPool({ size: 2 });
  const warm = await pool.warm(`http://127.0.0.1:${port}/healthz`);
  expect(warm.open).toBe(0);
  expect(warm.errors).toEqual({ ECONNREFUSED: 6 }); // 2 requests × 3 rounds
  expect(pool.counts().connectErrors.ECONNREFUSED).toBeGreaterThan(0);
  server = http.createServer(); // afterEach closes it
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
});

it('refuses a pool without connections', () => {
  expect(() => createPool({ size: 0 })).toThrow('A pool needs a whole number of connections ≥ 1, not 0.');
});
