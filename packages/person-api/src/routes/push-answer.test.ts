// Answering from a notification over plain HTTP (issue 39): a screen's push, decrypted at a push service on
// 127.0.0.1, carries a single-use answer token; POST /push/answer with it answers once; a second use,
// another screen's token, a value not offered and a token after the screen was answered elsewhere are
// refused; svc_answers returns the tap with via "notification"; the other devices get a quiet replacement.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebPushTransport, generateVapidKeys } from '@screen-service/push';
import {
  startTestPushService,
  type TestPushService,
  type TestSubscriber,
} from '@screen-service/push/testing';
import type { ConnectionPrincipal } from '@screen-service/registry/hosts';
import { createTestCore, seedConnection, seedUser, type TestCore } from '@screen-service/test-kit';
import express from 'express';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPersonRouter } from '../router.js';
import { type PersonOAuth, personApiServices } from '../services.js';

const keys = generateVapidKeys();
const transport = createWebPushTransport({
  vapid: { ...keys, subject: 'mailto:ops@example.com' },
  allowLoopback: true,
});

let core: TestCore;
let ps: TestPushService;
let server: Server;
let base: string;
let principal: ConnectionPrincipal;
let userId: string;
let agentId: string;
let phone: TestSubscriber;
let laptop: TestSubscriber;

interface Buzz {
  kind: string;
  body: string;
  tag: string;
  screen_id?: string;
  actions?: { action: string; title: string; value: unknown }[];
  answer?: { url: string; token: string; expires_at: string };
}

beforeEach(async () => {
  core = createTestCore({
    seed: 11,
    clockStart: Date.parse('2026-11-28T12:00:00Z'),
    vapidPublicKey: keys.publicKey,
    pushEndpoints: { allowLoopback: true },
  });
  ps = await startTestPushService();
  const user = await seedUser(core.store);
  userId = user.id;
  const conn = await seedConnection(core.store, user.id, ['ada']);
  principal = await core.connectionAuth.verify(conn.token);
  agentId = conn.agents[0]!.id;
  phone = ps.subscriber();
  laptop = ps.subscriber();
  await core.push.subscribe(userId, { endpoint: phone.endpoint, keys: phone.keys, device: 'phone' });
  await core.push.subscribe(userId, { endpoint: laptop.endpoint, keys: laptop.keys, device: 'laptop' });
  const app = express();
  app.use(createPersonRouter({ services: personApiServices(core, {} as PersonOAuth), checkResponses: true }));
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await ps.close();
  core.close();
});

/** The pushes a device received (decrypted by the test push service), oldest first. */
const buzzes = (sub: TestSubscriber) =>
  ps.received.filter((r) => r.subscriber === sub.id && r.status < 300).map((r) => r.payload as Buzz);

async function showAndPush(lines: string) {
  const shown = await core.threadOps.show(principal, { lines });
  await core.createPushSender(transport).tick();
  return shown.screen_id;
}

/** What a service worker does with an action: POST the answer URL the payload names, without sign-in. */
async function answer(body: Record<string, unknown>) {
  const res = await fetch(`${base}/push/answer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('POST /push/answer', () => {
  it("a decrypted payload's token answers once; svc_answers returns the tap with via notification", async () => {
    const screenId = await showAndPush('choose@lunch "Lunch?" Soup|Salad');
    const [buzz] = buzzes(phone);
    expect(buzz).toMatchObject({
      kind: 'message',
      body: 'Lunch?',
      screen_id: screenId,
      actions: [
        { action: 'a0', title: 'Soup', value: 'Soup' },
        { action: 'a1', title: 'Salad', value: 'Salad' },
      ],
    });
    expect(buzz!.answer!.url).toBe(`${core.urls.appUrl}/push/answer`);
    const token = buzz!.answer!.token;
    const first = await answer({ token, screen_id: screenId, value: 'Soup' });
    expect(first).toMatchObject({
      status: 201,
      body: { screen_id: screenId, value: 'Soup', sent: 'Sent: Soup' },
    });
    expect(first.body.line).toMatch(/^\[svc\] lunch choose choice=Soup/);
    const again = await answer({ token, screen_id: screenId, value: 'Soup' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: expect.any(String) });

    const got = await core.threadOps.answers(principal, { screen_id: screenId });
    expect(got.answers).toEqual([
      expect.objectContaining({
        kind: 'tap',
        screen_id: screenId,
        via: 'notification',
        event: expect.objectContaining({ value: 'Soup' }),
      }),
    ]);
    // Only the token's hash is kept.
    expect(JSON.stringify(await core.store.push.findNotice(token))).toBe('null');
  });

  it('refuses another screen’s token, a value not offered, an unknown or expired token', async () => {
    const first = await showAndPush('confirm@go "Ship it?"');
    core.advance(10_000);
    const second = await showAndPush('buttons@next "Next?" Continue|Stop');
    const [a, b] = buzzes(phone);
    expect(a!.actions!.map((x) => [x.title, x.value])).toEqual([
      ['Yes', true],
      ['No', false],
    ]);
    expect((await answer({ token: b!.answer!.token, screen_id: first, value: true })).status).toBe(403);
    const bad = await answer({ token: b!.answer!.token, screen_id: second, value: 'Pause' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/Continue.*Stop/);
    expect(
      (await answer({ token: `svc_nt_${'x'.repeat(43)}`, screen_id: second, value: 'Stop' })).status,
    ).toBe(401);
    expect((await answer({ token: 'not-a-token', screen_id: second, value: 'Stop' })).status).toBe(401);
    // The refusals spent nothing: the right value still answers.
    expect((await answer({ token: b!.answer!.token, screen_id: second, value: 'Stop' })).status).toBe(201);
    core.advance(12 * 3600_000);
    expect((await answer({ token: a!.answer!.token, screen_id: first, value: true })).status).toBe(401);
  });

  it('a token after the screen was answered elsewhere is refused, and the other devices are told quietly', async () => {
    const screenId = await showAndPush('confirm@go "Ship it?"');
    const [onPhone] = buzzes(phone);
    const [onLaptop] = buzzes(laptop);
    // Answered on the laptop's notification: the phone's notification is replaced, the laptop's is its own.
    expect((await answer({ token: onLaptop!.answer!.token, screen_id: screenId, value: false })).status).toBe(
      201,
    );
    expect((await answer({ token: onPhone!.answer!.token, screen_id: screenId, value: true })).status).toBe(
      409,
    );
    await core.createPushSender(transport).tick();
    expect(buzzes(phone).slice(1)).toEqual([
      {
        kind: 'stale',
        agent_id: expect.any(String),
        title: 'ada',
        body: 'Answered on another device: No',
        tag: onPhone!.tag,
        url: expect.stringContaining(`?screen=${screenId}`),
        screen_id: screenId,
      },
    ]);
    expect(buzzes(laptop)).toHaveLength(1);
    const stale = ps.received.filter((r) => (r.payload as Buzz).kind === 'stale')[0]!;
    expect(stale.headers).toMatchObject({ urgency: 'normal', topic: ps.received[0]!.headers.topic });
  });

  it('a tap in the app closes every device’s token and replaces their notifications', async () => {
    const screenId = await showAndPush('choose@lunch "Lunch?" Soup|Salad');
    await core.threads.tap(userId, agentId, {
      screen_id: screenId,
      event: { id: 'lunch', value: 'Salad' },
    });
    for (const sub of [phone, laptop]) {
      const token = buzzes(sub)[0]!.answer!.token;
      expect((await answer({ token, screen_id: screenId, value: 'Soup' })).status).toBe(409);
    }
    await core.createPushSender(transport).tick();
    expect(buzzes(phone).map((b) => [b.kind, b.body])).toEqual([
      ['message', 'Lunch?'],
      ['stale', 'Answered in the app: Salad'],
    ]);
    expect(buzzes(laptop).map((b) => b.kind)).toEqual(['message', 'stale']);
  });

  it('a newer notification of the thread is not replaced when an older screen is answered', async () => {
    const older = await showAndPush('confirm@a "First?"');
    core.advance(10_000);
    await core.threadOps.say(principal, { text: 'A newer line' });
    await core.createPushSender(transport).tick();
    await core.threads.tap(userId, agentId, {
      screen_id: older,
      event: { id: 'a', value: true },
    });
    await core.createPushSender(transport).tick();
    expect(buzzes(phone).map((b) => b.kind)).toEqual(['message', 'message']);
  });

  it('a form screen carries no actions and no token: a tap opens it', async () => {
    await showAndPush('choose@a "One?" A|B\nchoose@b "Two?" C|D');
    expect(buzzes(phone)[0]).not.toHaveProperty('actions');
    expect(buzzes(phone)[0]).not.toHaveProperty('answer');
  });
});
