// The whole path a newcomer takes, over real HTTP and a real SQLite file: account, agent, pairing code,
// host pairing, screens and answers, photos, presence, the live stream, connections, account deletion.
import fs from 'node:fs';
import path from 'node:path';
import { readSse } from '@screen-service/io-kit/sse';
import { createConnectionAuth } from '@screen-service/registry/hosts';
import { hashSecret } from '@screen-service/registry/kernel';
import { CORE_TABLES } from '@screen-service/store-sqlite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DATABASE_FILE } from '../src/index.js';
import { client, PNG, signUp, sqliteOf, startTestServer, type TestServer } from './harness.js';

let t: TestServer;
let call: ReturnType<typeof client>;
beforeAll(async () => {
  t = await startTestServer();
  call = client(t.base);
});
afterAll(() => t.close());

/** Reads SSE events from the live stream until `count` events arrived or the time is up. */
async function readEvents(url: string, count: number, timeoutMs: number, onOpen: () => Promise<void>) {
  const controller = new AbortController();
  const res = await fetch(url, { signal: controller.signal });
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  // biome-ignore lint/suspicious/noExplicitAny: parsed SSE payloads
  const events: { event: string; data: any }[] = [];
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  await onOpen();
  try {
    for await (const e of readSse(res.body!)) {
      events.push({ event: e.event, data: JSON.parse(e.data) });
      if (events.length >= count) break;
    }
  } catch {
    // aborted at the deadline
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return events;
}

describe('a full flow over HTTP', () => {
  it('pairs, shows, answers once, attaches photos, streams, removes the connection, deletes the account', async () => {
    const secrets: string[] = [];
    const session = await signUp(call, 'ada@example.com');
    secrets.push(session.access_token, session.refresh_token);
    const token = session.access_token;

    // An agent with a 6-digit code; the app lists it as pending.
    const created = await call('POST', '/agents', { token, body: { name: 'Claude Desktop' } });
    expect(created.status).toBe(201);
    expect(created.body.agent).toMatchObject({
      name: 'Claude Desktop',
      handle: 'claude-desktop',
      status: 'pending',
    });
    expect(['lavender', 'mint', 'butter']).toContain(created.body.agent.color);
    const code: string = created.body.pairing.code;
    secrets.push(code);

    // The host pairs with the code.
    const paired = await call('POST', '/functions/v1/svc-connect', {
      body: { action: 'pair', code, remote_ref: 'claude', kind: 'mcp', host_name: 'laptop' },
    });
    expect(paired.status).toBe(200);
    const connectorToken: string = paired.body.connector_token;
    secrets.push(connectorToken);
    const listed = await call('GET', '/agents', { token });
    expect(listed.body.agents).toEqual([
      expect.objectContaining({
        id: created.body.agent.id,
        status: 'connected',
        unread: 0,
        is_default: true,
      }),
    ]);

    // The AI puts a screen in the thread (thread operations, as the tool server calls them).
    const { threadOps, connectionAuth } = t.running.services;
    const principal = await connectionAuth.verify(connectorToken);
    const shown = await threadOps.show(principal, {
      lines: 'choose@lunch "Lunch?" Pasta|Salad\nphoto@snap "Your plate"',
    });
    const agentId: string = created.body.agent.id;
    expect((await call('GET', '/agents', { token })).body.agents[0].unread).toBe(1);

    // The app reads the page (marks it read) and sees the screen with its ops.
    const page = await call('GET', `/agents/${agentId}/messages`, { token });
    expect(page.status).toBe(200);
    expect(page.body.messages).toEqual([
      expect.objectContaining({
        kind: 'screen',
        sender: 'agent',
        screen: expect.objectContaining({ id: shown.screen_id, tap_ids: ['lunch', 'snap'] }),
      }),
    ]);
    expect((await call('GET', '/agents', { token })).body.agents[0].unread).toBe(0);

    // A waiting answers call wakes on the phone's tap, long before its wait ends (the milliseconds are
    // measured by bench/wake-bench.mjs).
    const waiting = threadOps.answers(principal, { screen_id: shown.screen_id, wait: 10 });
    await vi.waitFor(() => expect(t.running.services.notifier.listenerCount(principal.userId)).toBe(1));
    const tappedAt = performance.now();
    const tap = await call('POST', `/agents/${agentId}/taps`, {
      token,
      body: { screen_id: shown.screen_id, event: { id: 'lunch', value: 'Pasta' } },
    });
    expect(tap.status).toBe(201);
    expect(tap.body).toMatchObject({
      echo: 'Pasta',
      line: expect.stringMatching(/^\[svc\] lunch choose choice=Pasta\n/),
    });
    const got = await waiting;
    expect(performance.now() - tappedAt).toBeLessThan(5_000);
    expect(got.answers.map((a) => a.event?.value)).toEqual(['Pasta']);
    expect((await threadOps.answers(principal, {})).answers).toEqual([]);

    // Photos: upload, attach to a tap, delivered to the AI as signed links that serve the bytes.
    const up = await call('POST', `/agents/${agentId}/photos`, { token, raw: PNG, type: 'image/png' });
    expect(up.status).toBe(201);
    await call('POST', `/agents/${agentId}/taps`, {
      token,
      body: { screen_id: shown.screen_id, event: { id: 'snap', value: 1 }, photo_ids: [up.body.id] },
    });
    const withPhoto = await threadOps.answers(principal, {});
    const link = withPhoto.answers[0]!.photos[0]!;
    expect(link).toMatch(/\/functions\/v1\/svc-app\/photos\/pho_[^?]+\?exp=\d+&sig=/);
    const fetched = await fetch(link.replace(/^http:\/\/localhost:\d+/, t.base));
    expect(fetched.status).toBe(200);
    expect(Buffer.from(await fetched.arrayBuffer())).toEqual(PNG);
    expect(
      (
        await fetch(
          link
            .replace(/^http:\/\/localhost:\d+/, t.base)
            .replace(/sig=(.)/, (_m, c: string) => `sig=${c === 'x' ? 'y' : 'x'}`),
        )
      ).status,
    ).toBe(404);
    expect(
      (await fetch(link.replace(/^http:\/\/localhost:\d+/, t.base).replace(/exp=\d+/, 'exp=1000'))).status,
    ).toBe(404);

    // Presence: an open thread does not buzz; a closed one does.
    const before = (await t.running.services.store.threads.listPushIntents(session.user.id)).length;
    await call('PUT', `/agents/${agentId}/presence`, { token, body: { open: true } });
    await threadOps.say(principal, { text: 'while open' });
    await call('PUT', `/agents/${agentId}/presence`, { token, body: { open: false } });
    await threadOps.say(principal, { text: 'after close' });
    expect((await t.running.services.store.threads.listPushIntents(session.user.id)).length).toBe(before + 1);

    // The live stream carries the AI's message and the person's typed reply.
    const events = await readEvents(
      `${t.base}/functions/v1/svc-app/stream?access_token=${token}`,
      2,
      3000,
      async () => {
        await threadOps.say(principal, { text: 'streamed' });
        await call('POST', `/agents/${agentId}/messages`, { token, body: { text: 'typed back' } });
      },
    );
    expect(events.map((e) => [e.event, e.data.message.body])).toEqual([
      ['message', 'streamed'],
      ['message', 'typed back'],
    ]);

    // Refresh rotates; the old refresh token is refused.
    const refreshed = await call('POST', '/auth/refresh', { body: { refresh_token: session.refresh_token } });
    expect(refreshed.status).toBe(200);
    secrets.push(refreshed.body.refresh_token, refreshed.body.access_token);

    // No token or code is stored in clear anywhere in the database files.
    sqliteOf(t).pragma('wal_checkpoint(TRUNCATE)');
    const files = fs.readdirSync(t.dataDir).filter((f) => f.startsWith(DATABASE_FILE));
    for (const f of files) {
      const bytes = fs.readFileSync(path.join(t.dataDir, f)).toString('latin1');
      for (const s of secrets) expect(bytes.includes(s), `${f} holds a raw secret`).toBe(false);
    }
    // The scan reads real data: the token's hash is there (in the main file, or still in the WAL when a
    // reader held the checkpoint back).
    const all = files.map((f) => fs.readFileSync(path.join(t.dataDir, f)).toString('latin1')).join('');
    expect(all.includes(hashSecret(connectorToken))).toBe(true);

    // Removing the connection stops its token at once.
    const connections = await call('GET', '/connections', { token: refreshed.body.access_token });
    expect(connections.body.connections).toEqual([
      expect.objectContaining({ name: 'laptop', kind: 'mcp', revoked_at: null }),
    ]);
    const removed = await call('DELETE', `/connections/${connections.body.connections[0].id}`, {
      token: refreshed.body.access_token,
    });
    expect(removed.status).toBe(204);
    await expect(
      createConnectionAuth({ store: t.running.services.store }).verify(connectorToken),
    ).rejects.toThrow(/removed in the app/);
    expect((await call('GET', '/agents', { token: refreshed.body.access_token })).body.agents[0].status).toBe(
      'offline',
    );

    // Deleting the account leaves zero rows in every table and removes the photo files.
    const deleted = await call('DELETE', '/me', {
      token: refreshed.body.access_token,
      body: { password: 'correct horse battery' },
    });
    expect(deleted.status).toBe(204);
    for (const table of CORE_TABLES) {
      const n = (sqliteOf(t).prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
      expect(n, `rows left in ${table}`).toBe(0);
    }
    expect(fs.readdirSync(path.join(t.dataDir, 'photos'))).toEqual([]);
    expect((await call('GET', '/agents', { token: refreshed.body.access_token })).status).toBe(401);
  });
});

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1, generated from the schemas, and lists every route', async () => {
    const doc = await call('GET', '/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    expect(Object.keys(doc.body.paths)).toContain('/functions/v1/svc-app/agents/{agentId}/taps');
    expect(doc.body.components.schemas.Agent.properties.status.enum).toEqual([
      'pending',
      'connected',
      'offline',
    ]);
    expect(
      doc.body.paths['/functions/v1/svc-app/agents'].post.requestBody.content['application/json'].schema,
    ).toEqual({
      $ref: '#/components/schemas/CreateAgentRequest',
    });
  });
});
