// The thread page over HTTP is sent as JSON text built by the core (ADR 0212): the same bytes and headers
// as the object answer through res.json, and the answer still checked against its schema.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestCore, seedConnection, type TestCore } from '@screen-service/test-kit';
import express from 'express';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JsonText } from '../json-text.js';
import { defineRoute } from '../route.js';
import { createPersonRouter } from '../router.js';
import * as s from '../schemas.js';
import { type PersonOAuth, personApiServices } from '../services.js';
import { threadRoutes } from './threads.js';

// The page as it was answered before: the view objects, serialized by res.json.
const objectPage = defineRoute({
  method: 'get',
  path: '/agents/:agentId/messages',
  summary: 'the page as objects',
  auth: 'user',
  query: s.pageQuery,
  response: s.threadPage,
  handler: ({ services, user, params, query }) => services.threads.page(user.userId, params.agentId, query),
});

let core: TestCore;
const servers: Server[] = [];

async function serve(routes: Parameters<typeof createPersonRouter>[0]['routes']) {
  const errors: unknown[] = [];
  const app = express();
  const services = personApiServices(core, {} as PersonOAuth);
  app.use(createPersonRouter({ services, routes, checkResponses: true, onError: (e) => errors.push(e) }));
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((r) => server.once('listening', r));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, errors };
}

beforeEach(() => {
  core = createTestCore({ seed: 9 });
});
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
  core.close();
});

describe('the thread page as JSON text', () => {
  it('answers the same bytes, content type, length and ETag as JSON.stringify of the page objects', async () => {
    const session = await core.accounts.signUp({
      email: 'ada@example.com',
      password: 'correct horse battery',
    });
    const { userId } = await core.accounts.verifyAccess(session.access_token);
    const c = await seedConnection(core.store, userId, ['main']);
    const host = await core.connectionAuth.verify(c.token);
    const agentId = c.agents[0]!.id;
    for (let i = 0; i < 4; i++) {
      await core.threadOps.say(host, { text: `Hello "${i}" \u2028 \ud83d\ude00 <b>&</b>` });
      await core.threadOps.show(host, { lines: `choose@pick "Lunch ${i}?" Pasta|Soup\ntimer 5m Break` });
      core.advance(61_001);
    }
    const tapped = (await core.threads.page(userId, agentId)).messages.at(-1)!.screen!.id;
    await core.threads.tap(userId, agentId, { screen_id: tapped, event: { id: 'pick', value: 'Soup' } });

    const text = await serve(threadRoutes);
    const objects = await serve([objectPage]);
    const auth = { authorization: `Bearer ${session.access_token}` };
    for (const query of ['', '?limit=3', '?limit=2&before=5']) {
      const path = `/agents/${agentId}/messages${query}`;
      await fetch(text.base + path, { headers: auth }); // the newest page marks rows delivered first
      const [a, b] = [
        await fetch(text.base + path, { headers: auth }),
        await fetch(objects.base + path, { headers: auth }),
      ];
      expect(a.status).toBe(200);
      const [bodyA, bodyB] = [await a.text(), await b.text()];
      expect(bodyA).toBe(bodyB);
      for (const h of ['content-type', 'content-length', 'etag'])
        expect(a.headers.get(h), h).toBe(b.headers.get(h));
      expect(a.headers.get('content-type')).toBe('application/json; charset=utf-8');
    }
    expect(text.errors).toEqual([]);
    const other = await serve(threadRoutes);
    const stranger = await core.accounts.signUp({
      email: 'bob@example.com',
      password: 'correct horse battery',
    });
    const refused = await fetch(`${other.base}/agents/${agentId}/messages`, {
      headers: { authorization: `Bearer ${stranger.access_token}` },
    });
    expect(refused.status).toBe(404);
  });

  it('checkResponses parses JSON text and refuses one outside the schema', async () => {
    const lying = defineRoute({
      method: 'get',
      path: '/lying',
      summary: 'text outside its schema',
      auth: 'none',
      response: s.threadPage,
      handler: () => new JsonText('{"messages":"none","next_before":null}'),
    });
    const { base, errors } = await serve([lying]);
    const r = await fetch(`${base}/lying`);
    expect(r.status).toBe(500);
    expect(String(errors[0])).toMatch(/answered outside its schema: messages/);
  });
});
