// Photos over HTTP (issue 22 items 6 and 10): a page sent as image/png is refused, a stored photo is served
// with nosniff, a Content-Disposition and a sandboxing policy.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestCore, type TestCore } from '@screen-service/test-kit';
import express from 'express';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPersonRouter } from '../router.js';
import { type PersonOAuth, personApiServices } from '../services.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

let core: TestCore;
let server: Server;
let base: string;

beforeEach(async () => {
  core = createTestCore({ seed: 6 });
  const app = express();
  app.use(createPersonRouter({ services: personApiServices(core, {} as PersonOAuth) }));
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  core.close();
});

describe('photos over HTTP', () => {
  it('refuses HTML sent as image/png and serves a real photo so that it can never run as a page', async () => {
    const s = await core.accounts.signUp({ email: 'ada@example.com', password: 'correct horse battery' });
    const auth = { authorization: `Bearer ${s.access_token}` };
    const { userId } = await core.accounts.verifyAccess(s.access_token);
    const { agent } = await core.agents.create(userId, { name: 'Coach' });
    const up = (body: Buffer) =>
      fetch(`${base}/agents/${agent.id}/photos`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'image/png' },
        body,
      });
    const html = await up(Buffer.from('<!doctype html><script>alert(1)</script>'));
    expect(html.status).toBe(400);
    expect(((await html.json()) as { message: string }).message).toMatch(/not a PNG image/);
    const ok = await up(PNG);
    expect(ok.status).toBe(201);
    const { url } = (await ok.json()) as { url: string };
    const link = new URL(url);
    const got = await fetch(`${base}/photos/${link.pathname.split('/').at(-1)}${link.search}`);
    expect(got.status).toBe(200);
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    expect(got.headers.get('content-disposition')).toBe('inline; filename="photo.png"');
    expect(got.headers.get('content-security-policy')).toMatch(/sandbox/);
    expect(Buffer.from(await got.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it("records a photo's size at upload and every link to it carries the size (issue 38)", async () => {
    const s = await core.accounts.signUp({ email: 'bo@example.com', password: 'correct horse battery' });
    const auth = { authorization: `Bearer ${s.access_token}` };
    const { userId } = await core.accounts.verifyAccess(s.access_token);
    const { agent } = await core.agents.create(userId, { name: 'Coach' });
    const up = await fetch(`${base}/agents/${agent.id}/photos`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'image/png' },
      body: PNG,
    });
    const { id, url } = (await up.json()) as { id: string; url: string };
    expect(new URL(url).hash).toBe('#w=1&h=1');
    // The fragment never reaches the server: the link still opens the photo.
    const link = new URL(url);
    expect(
      (await fetch(`${base}/photos/${link.pathname.split('/').at(-1)}${link.search}${link.hash}`)).status,
    ).toBe(200);
    const sent = await fetch(`${base}/agents/${agent.id}/messages`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'lunch', photo_ids: [id] }),
    });
    expect(((await sent.json()) as { photos: string[] }).photos[0]).toMatch(/#w=1&h=1$/);
    const page = await fetch(`${base}/agents/${agent.id}/messages`, { headers: auth });
    const { messages } = (await page.json()) as { messages: { photos: string[] }[] };
    expect(messages.at(-1)!.photos[0]).toMatch(/\?exp=\d+&sig=[\w-]+#w=1&h=1$/);
  });
});
