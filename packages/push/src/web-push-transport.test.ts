import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPushService, type TestPushService } from './testing.js';
import { generateVapidKeys } from './vapid.js';
import { createWebPushTransport, outcomeOf, outcomeOfPost, parseRetryAfter } from './web-push-transport.js';

let ps: TestPushService;
const keys = generateVapidKeys();
const vapid = { ...keys, subject: 'mailto:ops@example.com' };
const transport = createWebPushTransport({ vapid, allowLoopback: true });

beforeAll(async () => {
  ps = await startTestPushService();
});
afterAll(async () => {
  await ps.close();
});

describe('web-push transport against a push service on 127.0.0.1', () => {
  it('sends an aes128gcm body the subscriber decrypts, with a valid VAPID JWT and the RFC 8030 headers', async () => {
    const sub = ps.subscriber();
    const before = Math.floor(Date.now() / 1000);
    const outcome = await transport.send({
      subscription: { endpoint: sub.endpoint, keys: sub.keys },
      payload: JSON.stringify({ kind: 'message', title: 'Ada', body: 'Lunch? ☕' }),
      ttl: 43200,
      urgency: 'high',
      topic: 'thread-topic-1',
    });
    expect(outcome).toEqual({ status: 'sent' });
    const push = ps.received.at(-1)!;
    expect(ps.rejected).toEqual([]);
    expect(push.payload).toEqual({ kind: 'message', title: 'Ada', body: 'Lunch? ☕' });
    expect(push.headers).toEqual({
      ttl: '43200',
      urgency: 'high',
      topic: 'thread-topic-1',
      contentEncoding: 'aes128gcm',
    });
    // RFC 8292: audience is the push service's origin, expiry within 24 hours, contact and key as configured.
    expect(push.vapid.aud).toBe(new URL(ps.url).origin);
    expect(push.vapid.exp).toBeGreaterThan(before);
    expect(push.vapid.exp).toBeLessThanOrEqual(before + 24 * 3600);
    expect(push.vapid.sub).toBe('mailto:ops@example.com');
    expect(push.vapid.publicKey).toBe(keys.publicKey);
  });

  it('a body encrypted for one subscriber does not decrypt for another', async () => {
    const a = ps.subscriber();
    const b = ps.subscriber();
    const outcome = await transport.send({
      // b's endpoint with a's keys: the push service holds b's private key, so decryption must fail.
      subscription: { endpoint: b.endpoint, keys: a.keys },
      payload: '{"x":1}',
      ttl: 60,
      urgency: 'normal',
    });
    expect(outcome).toMatchObject({ status: 'failed', httpStatus: 400 });
    expect(ps.rejected.at(-1)).toMatchObject({ subscriber: b.id });
    ps.rejected.length = 0;
  });

  it('reads 404/410 as gone, 429/5xx as retry with Retry-After, other 4xx as failed', async () => {
    const sub = ps.subscriber();
    ps.script(sub.id, [
      { status: 410 },
      { status: 404 },
      { status: 503, retryAfter: '7' },
      { status: 429 },
      { status: 413 },
    ]);
    const send = () =>
      transport.send({
        subscription: { endpoint: sub.endpoint, keys: sub.keys },
        payload: '{}',
        ttl: 60,
        urgency: 'normal',
      });
    expect(await send()).toEqual({ status: 'gone', httpStatus: 410 });
    expect(await send()).toEqual({ status: 'gone', httpStatus: 404 });
    expect(await send()).toMatchObject({ status: 'retry', httpStatus: 503, retryAfterMs: 7000 });
    const r429 = await send();
    expect(r429).toMatchObject({ status: 'retry', httpStatus: 429 });
    expect(r429).not.toHaveProperty('retryAfterMs');
    expect(await send()).toMatchObject({ status: 'failed', httpStatus: 413 });
  });

  it('an unreachable push service is a retry, not a crash', async () => {
    const sub = ps.subscriber();
    const outcome = await createWebPushTransport({ vapid, timeoutMs: 2000, allowLoopback: true }).send({
      subscription: { endpoint: 'http://127.0.0.1:9/push/x', keys: sub.keys },
      payload: '{}',
      ttl: 60,
      urgency: 'normal',
    });
    expect(outcome).toMatchObject({ status: 'retry', httpStatus: null });
  });

  it('parses Retry-After as seconds or an HTTP-date', () => {
    const now = Date.parse('2026-11-23T12:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Mon, 23 Nov 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(outcomeOf(201, undefined, '')).toEqual({ status: 'sent' });
  });

  it('maps a POST result with one rule set: unencryptable is failed 400, unreachable is retry, answers by status', () => {
    const now = Date.parse('2026-11-23T12:00:00Z');
    expect(outcomeOfPost({ kind: 'unencryptable', reason: 'bad key' }, now)).toMatchObject({
      status: 'failed',
      httpStatus: 400,
    });
    expect(outcomeOfPost({ kind: 'unreachable', reason: 'ECONNRESET' }, now)).toMatchObject({
      status: 'retry',
      httpStatus: null,
    });
    expect(outcomeOfPost({ kind: 'answer', status: 429, retryAfter: '5', body: 'slow down' }, now)).toEqual({
      status: 'retry',
      httpStatus: 429,
      retryAfterMs: 5000,
      reason: 'push service answered 429: slow down',
    });
    expect(outcomeOfPost({ kind: 'answer', status: 201, retryAfter: null, body: 'ignored' }, now)).toEqual({
      status: 'sent',
    });
  });

  it('uses a fresh sender key pair for every message, also when they were made ahead while idle', async () => {
    const t = createWebPushTransport({ vapid, allowLoopback: true });
    const sub = ps.subscriber();
    const send = () => t.send({ subscription: sub, payload: '{}', ttl: 60, urgency: 'normal' });
    // Let the idle steps make some pairs ahead, then send more messages than were made.
    await new Promise((r) => setTimeout(r, 30));
    const outcomes = await Promise.all(Array.from({ length: 40 }, send));
    await new Promise((r) => setTimeout(r, 30));
    outcomes.push(...(await Promise.all(Array.from({ length: 40 }, send))));
    await t.close();
    expect(outcomes.every((o) => o.status === 'sent')).toBe(true);
    const keys = ps.received.filter((r) => r.subscriber === sub.id).map((r) => r.senderKey);
    expect(keys).toHaveLength(80);
    expect(new Set(keys).size).toBe(80);
  });

  it('reuses one VAPID JWT per origin until an hour before it expires, over one kept-alive connection', async () => {
    const auths: string[] = [];
    let connections = 0;
    const server = http.createServer((req, res) => {
      auths.push(req.headers.authorization ?? '');
      req.resume();
      req.on('end', () => res.writeHead(201).end());
    });
    server.on('connection', () => connections++);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    let clock = Date.parse('2026-11-27T12:00:00Z');
    const t = createWebPushTransport({ vapid, now: () => clock, allowLoopback: true });
    const sub = ps.subscriber();
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/push/x`;
    const send = () => t.send({ subscription: { ...sub, endpoint }, payload: '{}', ttl: 60, urgency: 'low' });
    const exp = (auth: string) =>
      JSON.parse(Buffer.from(auth.split('t=')[1]!.split('.')[1]!, 'base64url').toString()).exp as number;
    try {
      for (let i = 0; i < 3; i++) expect(await send()).toEqual({ status: 'sent' });
      clock += 10 * 3600_000; // 10 h later: 2 h left, still kept
      expect(await send()).toEqual({ status: 'sent' });
      clock += 3600_000 + 1000; // under an hour left: signed again
      expect(await send()).toEqual({ status: 'sent' });
      expect(new Set(auths.slice(0, 4)).size).toBe(1);
      expect(auths[4]).not.toBe(auths[0]);
      expect(exp(auths[4]!) - exp(auths[0]!)).toBe(11 * 3600 + 1);
      expect(connections).toBe(1);
    } finally {
      await t.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('close waits for the sends in flight; later sends answer retry', async () => {
    const t = createWebPushTransport({ vapid, allowLoopback: true });
    const sub = ps.subscriber();
    const sending = t.send({ subscription: sub, payload: '{}', ttl: 60, urgency: 'normal' });
    await t.close();
    expect(await sending).toEqual({ status: 'sent' });
    expect(await t.send({ subscription: sub, payload: '{}', ttl: 60, urgency: 'normal' })).toMatchObject({
      status: 'retry',
      httpStatus: null,
    });
  });
});
