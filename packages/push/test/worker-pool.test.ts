// The worker-pool transport against a push service on 127.0.0.1: pushes are encrypted and signed in the
// workers, and every answer (and a worker's death) maps to the same outcomes as the in-thread transport.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkerPoolTransport, generateVapidKeys, type PushRequest } from '../dist/index.js';
import { startTestPushService, type TestPushService, type TestSubscriber } from '../dist/testing.js';

const keys = generateVapidKeys();
const vapid = { ...keys, subject: 'mailto:ops@example.com' };
let ps: TestPushService;

beforeAll(async () => {
  ps = await startTestPushService();
});
afterAll(async () => {
  await ps.close();
});

const push = (sub: Pick<TestSubscriber, 'endpoint' | 'keys'>, payload: string): PushRequest => ({
  subscription: { endpoint: sub.endpoint, keys: sub.keys },
  payload,
  ttl: 60,
  urgency: 'high',
  topic: 'pool-topic',
});

describe('createWorkerPoolTransport', () => {
  it('sends from the workers: each push decrypts for its subscriber with a valid VAPID JWT', async () => {
    const pool = createWorkerPoolTransport({ vapid, workers: 2, allowLoopback: true });
    try {
      const subs = [ps.subscriber(), ps.subscriber(), ps.subscriber()];
      const outcomes = await Promise.all(
        Array.from({ length: 30 }, (_, i) => pool.send(push(subs[i % 3]!, JSON.stringify({ i })))),
      );
      expect(outcomes.every((o) => o.status === 'sent')).toBe(true);
      const got = ps.received.filter((r) => subs.some((s) => s.id === r.subscriber));
      expect(got.map((r) => (r.payload as { i: number }).i).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 30 }, (_, i) => i),
      );
      expect(
        got.every((r) => r.vapid.aud === new URL(ps.url).origin && r.vapid.publicKey === keys.publicKey),
      ).toBe(true);
      expect(got[0]!.headers).toEqual({
        ttl: '60',
        urgency: 'high',
        topic: 'pool-topic',
        contentEncoding: 'aes128gcm',
      });
      expect(ps.rejected).toEqual([]);
    } finally {
      await pool.close();
    }
  });

  it('maps answers like the in-thread transport: 410 gone, 503 + Retry-After retry, no answer retry, bad keys failed', async () => {
    const pool = createWorkerPoolTransport({
      vapid,
      workers: 1,
      now: () => Date.parse('2026-11-27T12:00:00Z'),
      allowLoopback: true,
    });
    try {
      const sub = ps.subscriber();
      ps.script(sub.id, [{ status: 410 }, { status: 503, retryAfter: 'Fri, 27 Nov 2026 12:00:30 GMT' }]);
      expect(await pool.send(push(sub, '{}'))).toEqual({ status: 'gone', httpStatus: 410 });
      // The HTTP-date is read with the pool's clock, in this thread.
      expect(await pool.send(push(sub, '{}'))).toMatchObject({
        status: 'retry',
        httpStatus: 503,
        retryAfterMs: 30_000,
      });
      const closed = http.createServer();
      await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
      const port = (closed.address() as AddressInfo).port;
      await new Promise<void>((r) => closed.close(() => r()));
      expect(
        await pool.send(push({ ...sub, endpoint: `http://127.0.0.1:${port}/push/x` }, '{}')),
      ).toMatchObject({
        status: 'retry',
        httpStatus: null,
      });
      expect(await pool.send(push({ ...sub, keys: { ...sub.keys, p256dh: 'AAAA' } }, '{}'))).toMatchObject({
        status: 'failed',
        httpStatus: 400,
      });
    } finally {
      await pool.close();
    }
  });

  it('refuses a pool size that is not a whole number of at least 1', () => {
    for (const workers of [0, -1, 1.5, Number.NaN]) {
      expect(() => createWorkerPoolTransport({ vapid, workers })).toThrow(/workers must be a whole number/);
    }
  });

  it('checks each endpoint on this thread before a worker sends: an inside address gets nothing (issue 46)', async () => {
    const pool = createWorkerPoolTransport({
      vapid,
      workers: 1,
      resolve: async () => [{ address: '169.254.169.254', family: 4 }],
    });
    try {
      const sub = ps.subscriber();
      const outcome = await pool.send(push({ ...sub, endpoint: 'https://meta.push.test/x' }, '{}'));
      expect(outcome).toMatchObject({ status: 'failed', httpStatus: 0 });
      expect((outcome as { reason: string }).reason).toMatch(/169\.254\.169\.254, a link-local address/);
      // And without the test setting, the test push service on 127.0.0.1 is refused too.
      expect(await pool.send(push(sub, '{}'))).toMatchObject({ status: 'failed', httpStatus: 0 });
      expect(ps.received.filter((r) => r.subscriber === sub.id)).toHaveLength(0);
    } finally {
      await pool.close();
    }
  });

  it('a worker that dies mid-flight answers retry for its pushes; the next push goes through a fresh worker', async () => {
    const pool = createWorkerPoolTransport({
      vapid,
      workers: 1,
      workerUrl: new URL('./fixtures/dying-push-worker.mjs', import.meta.url),
      allowLoopback: true,
    });
    try {
      const sub = ps.subscriber();
      const outcome = await pool.send(push(sub, 'die'));
      expect(outcome).toMatchObject({ status: 'retry', httpStatus: null });
      expect(outcome.status === 'retry' && outcome.reason).toMatch(/worker exited \(code 3\)/);
      expect(await pool.send(push(sub, '{"after":1}'))).toEqual({ status: 'sent' });
    } finally {
      await pool.close();
    }
  });

  it('close waits for the pushes in flight, then later sends answer retry without sending', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    let requests = 0;
    const slow = http.createServer((req, res) => {
      requests++;
      req.resume();
      void held.then(() => res.writeHead(201).end());
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    const sub = ps.subscriber();
    const endpoint = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/push/slow`;
    const pool = createWorkerPoolTransport({ vapid, workers: 1, allowLoopback: true });
    const sending = pool.send(push({ ...sub, endpoint }, '{}'));
    await expect.poll(() => requests).toBe(1);
    let closed = false;
    const closing = pool.close().then(() => {
      closed = true;
    });
    await new Promise((r) => setImmediate(r));
    expect(closed).toBe(false);
    release();
    expect(await sending).toEqual({ status: 'sent' });
    await closing;
    expect(await pool.send(push({ ...sub, endpoint }, '{}'))).toMatchObject({
      status: 'retry',
      httpStatus: null,
    });
    expect(requests).toBe(1);
    slow.closeAllConnections();
    await new Promise<void>((r) => slow.close(() => r()));
  });
});
