// doc2's deletion rules on the real server: a deleted connector leaves its agents with connector_id null;
// deleting an agent deletes its thread (messages and pairings), and nothing of the person's other agents.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { hashSecret } from '@screen-service/registry/kernel';
import { MOUNTS } from '@screen-service/registry/mounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signUp, startTestServer, type TestServer } from './harness.js';

let t: TestServer;
let call: ReturnType<typeof client>;
beforeAll(async () => {
  t = await startTestServer();
  call = client(t.base);
});
afterAll(() => t.close());

const pair = (code: string, remoteRef: string, kind = 'hostfw') =>
  call('POST', MOUNTS.connect, {
    body: { action: 'pair', code, remote_ref: remoteRef, kind, host_name: 'box' },
  });

/** An agent made in the app, with the pairing code the app shows. */
async function newAgent(token: string, name: string) {
  const made = await call('POST', '/agents', { token, body: { name } });
  expect(made.status).toBe(201);
  return { id: made.body.agent.id as string, code: made.body.pairing.code as string };
}

describe('deleting a connector (doc2: connector_id "set null if the connector is deleted")', () => {
  it('keeps every agent it served, each with connector_id null', async () => {
    const person = await signUp(call, 'connector@example.com');
    const first = await newAgent(person.access_token, 'First');
    const paired = await pair(first.code, 'first');
    expect(paired.status).toBe(200);
    const connectorId = paired.body.connector.id as string;
    const added = await call('POST', MOUNTS.connect, {
      token: paired.body.connector_token,
      body: { action: 'add', remote_ref: 'second', name: 'Second' },
    });
    expect(added.status).toBe(200);
    const ids = [first.id, added.body.agent.id as string];
    const { store } = t.running.services;
    for (const id of ids) expect((await store.agents.get(id))!.connectorId).toBe(connectorId);

    expect(await store.connectors.delete(connectorId)).toBe(true);

    expect(await store.connectors.get(connectorId)).toBeNull();
    for (const id of ids) expect(await store.agents.get(id)).toMatchObject({ id, connectorId: null });
    const listed = (await call('GET', '/agents', { token: person.access_token })).body.agents as {
      id: string;
      status: string;
    }[];
    // Still the person's agents; with no connector they read as not yet claimed by a host.
    expect(listed.map((a) => [a.id, a.status])).toEqual(ids.map((id) => [id, 'pending']));
  });
});

describe('deleting an agent (doc2: "deletes its thread (messages and pairings)")', () => {
  it('removes its messages, screens and pairing codes, and leaves the other agents alone', async () => {
    const person = await signUp(call, 'agent-delete@example.com');
    const token = person.access_token;
    const doomed = await newAgent(token, 'Doomed');
    const kept = await newAgent(token, 'Kept');
    const paired = await pair(doomed.code, 'claude', 'mcp');
    expect(paired.status).toBe(200);

    // The thread: the agent's screen and chat line (over MCP), and the person's own message.
    const mcp = new Client({ name: 'deletion-test', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${t.base}${MOUNTS.mcp}`), {
        requestInit: { headers: { authorization: `Bearer ${paired.body.connector_token}` } },
      }),
    );
    const shown = (
      await mcp.callTool({ name: 'svc_show', arguments: { lines: 'choose "Lunch?" Soup|Salad' } })
    ).structuredContent as { screen_id: string; message_id: string };
    const said = (await mcp.callTool({ name: 'svc_say', arguments: { text: 'Hello' } }))
      .structuredContent as {
      message_id: string;
    };
    await mcp.close();
    const mine = await call('POST', `/agents/${doomed.id}/messages`, { token, body: { text: 'Soup' } });
    const other = await call('POST', `/agents/${kept.id}/messages`, { token, body: { text: 'stays' } });
    expect([mine.status, other.status]).toEqual([201, 201]);
    // A fresh code for it (unused) besides the one it was paired with (used).
    const fresh = await call('POST', `/agents/${doomed.id}/code`, { token });
    expect(fresh.status).toBe(201);

    const { store } = t.running.services;
    const thread = { agentId: doomed.id, userId: person.user.id, limit: 50 };
    expect((await store.threads.page(thread)).length).toBe(3);
    expect(await store.pairing.findUnused(hashSecret(fresh.body.code))).not.toBeNull();

    const deleted = await call('POST', MOUNTS.agents, { token, body: { action: 'delete', id: doomed.id } });
    expect(deleted.status).toBe(200);

    expect(await store.agents.get(doomed.id)).toBeNull();
    expect(await store.threads.page(thread)).toEqual([]);
    for (const id of [shown.message_id, said.message_id, mine.body.id]) {
      expect(await store.threads.getMessage(id)).toBeNull();
    }
    expect(await store.threads.getScreen(shown.screen_id)).toBeNull();
    expect(await store.pairing.findUnused(hashSecret(fresh.body.code))).toBeNull();
    expect((await pair(fresh.body.code, 'again')).body.error).toBe('invalid_or_expired_code');
    expect((await call('GET', `/agents/${doomed.id}/messages`, { token })).status).toBe(404);

    // The person's other agent and its thread are untouched.
    const keptThread = await store.threads.page({ agentId: kept.id, userId: person.user.id, limit: 50 });
    expect(keptThread.map((m) => m.body)).toEqual(['stays']);
    expect(await store.pairing.findUnused(hashSecret(kept.code))).not.toBeNull();
  });
});
