// The live stream ends with its credential (issue 22 item 3), and only it takes ?access_token= (item 9):
// the real core on a SQLite file behind the real router, over HTTP on 127.0.0.1.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestCore, type TestCore } from '@screen-service/test-kit';
import express from 'express';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPersonRouter } from '../router.js';
import { type PersonOAuth, personApiServices } from '../services.js';

let core: TestCore;
let server: Server;
let base: string;

beforeEach(async () => {
  core = createTestCore({ seed: 22 });
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

async function signUp() {
  const s = await core.accounts.signUp({ email: 'ada@example.com', password: 'correct horse battery' });
  return { token: s.access_token, principal: await core.accounts.verifyAccess(s.access_token) };
}

/** Opens the stream; `next()` resolves with the next event name, or 'closed' when the server ends it. */
async function openStream(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  let buffer = '';
  return {
    async next(): Promise<string> {
      for (;;) {
        const cut = buffer.indexOf('\n\n');
        if (cut >= 0) {
          const chunk = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const ev = /^event: (.+)$/m.exec(chunk)?.[1];
          if (ev) return ev;
          continue;
        }
        const { value, done } = await reader.read();
        if (done) return 'closed';
        buffer += new TextDecoder().decode(value);
      }
    },
    cancel: () => reader.cancel(),
  };
}

describe('GET /stream and its credential', () => {
  it('closes at sign-out without sending what came after', async () => {
    const { token, principal } = await signUp();
    const stream = await openStream(`${base}/stream`, { authorization: `Bearer ${token}` });
    core.notifier.publish({ type: 'agents', userId: principal.userId });
    await expect(stream.next()).resolves.toBe('agents');
    await core.accounts.signOut(principal);
    core.notifier.publish({ type: 'agents', userId: principal.userId });
    await expect(stream.next()).resolves.toBe('closed');
    expect(core.notifier.listenerCount(principal.userId)).toBe(0);
  });

  it('closes at account deletion at once, not at the next keep-alive (issue 46)', async () => {
    const { token, principal } = await signUp();
    const stream = await openStream(`${base}/stream`, { authorization: `Bearer ${token}` });
    const at = Date.now();
    const res = await fetch(`${base}/me`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ password: 'correct horse battery' }),
    });
    expect(res.status).toBe(204);
    await expect(stream.next()).resolves.toBe('closed');
    expect(Date.now() - at).toBeLessThan(5_000); // the keep-alive would take 25 s
    expect(core.notifier.listenerCount(principal.userId)).toBe(0);
  });

  it('closes once the token has expired, at the next event', async () => {
    const { token, principal } = await signUp();
    const stream = await openStream(`${base}/stream?access_token=${encodeURIComponent(token)}`);
    core.advance(60 * 60_000 + 1_000);
    core.notifier.publish({ type: 'agents', userId: principal.userId });
    await expect(stream.next()).resolves.toBe('closed');
  });

  it('holds at most the configured number of streams per account open at once', async () => {
    const app = express();
    app.use(
      createPersonRouter({ services: personApiServices(core, {} as PersonOAuth), streamsPerAccount: 2 }),
    );
    const capped = app.listen(0, '127.0.0.1');
    await new Promise((r) => capped.once('listening', r));
    const url = `http://127.0.0.1:${(capped.address() as AddressInfo).port}/stream`;
    const { token } = await signUp();
    const headers = { authorization: `Bearer ${token}` };
    const first = await openStream(url, headers);
    const second = await openStream(url, headers);
    expect((await fetch(url, { headers })).status).toBe(429);
    await first.cancel();
    await new Promise((r) => setTimeout(r, 50));
    const third = await openStream(url, headers);
    await Promise.all([second.cancel(), third.cancel()]);
    capped.closeAllConnections();
    await new Promise((r) => capped.close(r));
  });

  it('takes ?access_token= on the stream only', async () => {
    const { token } = await signUp();
    const q = `access_token=${encodeURIComponent(token)}`;
    const me = await fetch(`${base}/me?${q}`);
    expect(me.status).toBe(401);
    expect(((await me.json()) as { message: string }).message).toMatch(/only GET \/stream/);
    expect((await fetch(`${base}/me`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    const stream = await openStream(`${base}/stream?${q}`);
    await stream.cancel();
  });
});
