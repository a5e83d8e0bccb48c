// The account routes over HTTP (issue 38): sign out everywhere ends every sign-in of the account and its
// devices' push subscriptions, and no one else's; the app's settings (the image CDN); the agent list's
// one-line preview of each thread's newest row. Answers are checked against their schemas.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestCore, seedConnection, type TestCore } from '@screen-service/test-kit';
import express from 'express';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPersonRouter } from '../router.js';
import { type AppConfigOptions, type PersonOAuth, personApiServices } from '../services.js';

const PASSWORD = 'correct horse battery';
let core: TestCore;
let server: Server;
let base: string;
let errors: unknown[];

async function serve(appConfig: AppConfigOptions = {}): Promise<void> {
  errors = [];
  const app = express();
  const services = personApiServices(core, {} as PersonOAuth, null, appConfig);
  app.use(createPersonRouter({ services, checkResponses: true, onError: (e) => errors.push(e) }));
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const call = (method: string, path: string, token: string, body?: unknown) =>
  fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });

beforeEach(() => {
  core = createTestCore({ seed: 38 });
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  core.close();
});

describe('POST /auth/signout-everywhere', () => {
  it("ends every sign-in of the account and its push subscriptions, and leaves another account's alone", async () => {
    await serve();
    const phone = await core.accounts.signUp({ email: 'ada@example.com', password: PASSWORD });
    const laptop = await core.accounts.signIn({ email: 'ada@example.com', password: PASSWORD });
    const other = await core.accounts.signUp({ email: 'bo@example.com', password: PASSWORD });
    const { userId } = await core.accounts.verifyAccess(phone.access_token);
    await core.push.subscribe(userId, {
      endpoint: 'https://push.example/sub/1',
      keys: {
        p256dh: Buffer.alloc(65, 4).toString('base64url'),
        auth: Buffer.alloc(16, 1).toString('base64url'),
      },
      device: 'd-phone',
    });
    expect((await core.push.status(userId)).subscriptions).toHaveLength(1);

    const out = await call('POST', '/auth/signout-everywhere', laptop.access_token);
    expect(out.status).toBe(204);
    for (const s of [phone, laptop]) {
      expect((await call('GET', '/me', s.access_token)).status).toBe(401);
      const refreshed = await fetch(`${base}/auth/refresh`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refresh_token: s.refresh_token }),
      });
      expect(refreshed.status).toBe(401);
    }
    expect((await core.push.status(userId)).subscriptions).toEqual([]);
    expect((await call('GET', '/me', other.access_token)).status).toBe(200);
    // Signed out, the route itself asks for a sign-in.
    expect((await call('POST', '/auth/signout-everywhere', phone.access_token)).status).toBe(401);
    expect(errors).toEqual([]);
  });
});

describe('GET /app-config', () => {
  it('names the image CDN template when one is set, null otherwise; a signed-in route', async () => {
    await serve({ imageCdn: 'https://img.example/p/{prompt}?w=640' });
    const s = await core.accounts.signUp({ email: 'cy@example.com', password: PASSWORD });
    const res = await call('GET', '/app-config', s.access_token);
    expect(await res.json()).toEqual({ image_cdn: 'https://img.example/p/{prompt}?w=640' });
    expect((await fetch(`${base}/app-config`)).status).toBe(401);
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await serve();
    expect(await (await call('GET', '/app-config', s.access_token)).json()).toEqual({ image_cdn: null });
    expect(errors).toEqual([]);
  });
});

describe('GET /agents: the newest row of each thread as a preview', () => {
  it("says what the newest row says: a chat line, a screen's line or title, a tap's echo, the person's photo", async () => {
    await serve();
    const s = await core.accounts.signUp({ email: 'di@example.com', password: PASSWORD });
    const { userId } = await core.accounts.verifyAccess(s.access_token);
    const c = await seedConnection(core.store, userId, ['main']);
    const host = await core.connectionAuth.verify(c.token);
    const agentId = c.agents[0]!.id;
    const preview = async () => {
      const res = await call('GET', '/agents', s.access_token);
      const { agents } = (await res.json()) as {
        agents: { id: string; unread: number; last_message: { sender: string; text: string } | null }[];
      };
      const row = agents.find((a) => a.id === agentId)!;
      return { unread: row.unread, ...row.last_message };
    };
    expect((await preview()).sender).toBeUndefined();
    await core.threadOps.say(host, { text: '\n  Good morning!\nSecond line' });
    expect(await preview()).toEqual({ unread: 1, sender: 'agent', text: 'Good morning!' });
    const shown = await core.threadOps.show(host, { lines: 'choose@pick "Lunch today?" Pasta|Soup' });
    expect(await preview()).toEqual({ unread: 2, sender: 'agent', text: 'Lunch today?' });
    await core.threadOps.show(host, { lines: 'confirm "Go?"', text: 'One more thing' });
    expect((await preview()).text).toBe('One more thing');
    await core.threads.tap(userId, agentId, {
      screen_id: shown.screen_id,
      event: { id: 'pick', value: 'Soup' },
    });
    expect(await preview()).toMatchObject({ sender: 'person', text: '✓ Soup' });
    await core.threads.say(userId, agentId, { text: '(photo)' });
    expect(await preview()).toMatchObject({ sender: 'person', text: 'Photo' });
    await core.threads.say(userId, agentId, { text: 'x'.repeat(300) });
    expect((await preview()).text).toBe(`${'x'.repeat(119)}…`);
    expect(errors).toEqual([]);
  });
});

describe('PUT /me/time-zone (ADR 0253)', () => {
  it("keeps the device's zone, the person's pin over later reports, and refuses what is not a zone", async () => {
    await serve();
    const s = await core.accounts.signUp({ email: 'tz@example.com', password: PASSWORD });
    const me = async () => (await call('GET', '/me', s.access_token)).json();
    expect(await me()).toMatchObject({ time_zone: null, time_zone_pinned: false });
    const put = (body: unknown) => call('PUT', '/me/time-zone', s.access_token, body);
    const reported = await put({ time_zone: 'America/New_York', how: 'report' });
    expect(await reported.json()).toEqual({ time_zone: 'America/New_York', time_zone_pinned: false });
    await put({ time_zone: 'Europe/Berlin', how: 'pin' });
    await put({ time_zone: 'America/New_York', how: 'report' });
    expect(await me()).toMatchObject({ time_zone: 'Europe/Berlin', time_zone_pinned: true });
    const bad = await put({ time_zone: 'Mars/Olympus', how: 'pin' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ message: expect.stringMatching(/IANA time zone/) });
    expect((await put({ time_zone: 'UTC', how: 'sometimes' })).status).toBe(400);
    expect(await me()).toMatchObject({ time_zone: 'Europe/Berlin' });
    expect(errors).toEqual([]);
  });
});
