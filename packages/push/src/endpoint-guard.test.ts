// Issue 46: a push goes only to an https endpoint at a public address, checked at send time after DNS,
// connected to the address checked, and a redirect is never followed. The resolver is a stub: nothing here
// connects anywhere but 127.0.0.1, and only where the test setting allows it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ResolvedAddress } from '@screen-service/io-kit/outbound';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PushRequest } from './push-transport.js';
import { startTestPushService, type TestPushService } from './testing.js';
import { generateVapidKeys } from './vapid.js';
import { createWebPushTransport } from './web-push-transport.js';

const vapid = { ...generateVapidKeys(), subject: 'mailto:ops@example.com' };
let ps: TestPushService;
beforeAll(async () => {
  ps = await startTestPushService();
});
afterAll(async () => {
  await ps.close();
});

const v = (address: string): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 });

function request(endpoint: string, keys: PushRequest['subscription']['keys']): PushRequest {
  return { subscription: { endpoint, keys }, payload: '{}', ttl: 60, urgency: 'normal' };
}

describe('the push transport sends only where the outbound guard allows', () => {
  it('refuses endpoints whose name resolves inside (private, loopback, link-local, IPv4-mapped), sending nothing', async () => {
    const answers: Record<string, string[]> = {
      'ten.push.test': ['10.0.0.8'],
      'home.push.test': ['127.0.0.1'],
      'meta.push.test': ['169.254.169.254'],
      'mapped.push.test': ['::ffff:127.0.0.1'],
      'mixed.push.test': ['8.8.8.8', '192.168.1.1'],
    };
    const asked: string[] = [];
    const t = createWebPushTransport({
      vapid,
      resolve: async (host) => {
        asked.push(host);
        return (answers[host] ?? []).map(v);
      },
    });
    const sub = ps.subscriber();
    const before = ps.received.length;
    try {
      for (const host of Object.keys(answers)) {
        const outcome = await t.send(request(`https://${host}/push/x`, sub.keys));
        expect(outcome).toMatchObject({ status: 'failed', httpStatus: 0 });
        expect((outcome as { reason: string }).reason).toMatch(
          /endpoint was refused: .* address: only public/,
        );
      }
      // A plain http endpoint (the test push service) is refused without the test setting.
      expect(await t.send(request(sub.endpoint, sub.keys))).toMatchObject({
        status: 'failed',
        httpStatus: 0,
      });
      expect(asked).toEqual(Object.keys(answers));
      expect(ps.received.length).toBe(before);
    } finally {
      await t.close();
    }
  });

  it('checks at every send and connects to the address checked (a rebinding name gets nothing)', async () => {
    const port = new URL(ps.url).port;
    let calls = 0;
    // First answer: loopback (allowed by the test setting), every later one: the metadata address.
    const t = createWebPushTransport({
      vapid,
      allowLoopback: true,
      resolve: async () => [v(calls++ === 0 ? '127.0.0.1' : '169.254.169.254')],
    });
    const sub = ps.subscriber();
    const endpoint = `http://rebind.push.test:${port}/push/${sub.id}`;
    try {
      expect(await t.send(request(endpoint, sub.keys))).toEqual({ status: 'sent' });
      expect(await t.send(request(endpoint, sub.keys))).toMatchObject({ status: 'failed', httpStatus: 0 });
      expect(calls).toBe(2);
      expect(ps.received.filter((p) => p.subscriber === sub.id)).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  it('never follows a redirect', async () => {
    let followed = 0;
    const target = http.createServer((_req, res) => {
      followed++;
      res.writeHead(201).end();
    });
    const redirector = http.createServer((req, res) => {
      req.resume();
      const { port } = target.address() as AddressInfo;
      res.writeHead(307, { location: `http://127.0.0.1:${port}/admin` }).end();
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
    const t = createWebPushTransport({ vapid, allowLoopback: true });
    const sub = ps.subscriber();
    try {
      const { port } = redirector.address() as AddressInfo;
      const outcome = await t.send(request(`http://127.0.0.1:${port}/push/x`, sub.keys));
      expect(outcome).toMatchObject({ status: 'failed', httpStatus: 307 });
      expect(followed).toBe(0);
    } finally {
      await t.close();
      for (const s of [target, redirector]) {
        s.closeAllConnections();
        await new Promise<void>((r) => s.close(() => r()));
      }
    }
  });
});
