// svc_answers as a task (MCP Tasks extension, ADR 0265) over real HTTP: the handle, tasks/get until the answer,
// the same result svc_answers gives, a restart and another instance over the same database, the TTL, and
// another account's (or connection's) task out of reach. Wire shapes are checked with the extension's own
// schemas (@modelcontextprotocol/ext-tasks); discovery with the official 2.x client.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  CreateTaskResultV2Schema,
  GetTaskResultV2Schema,
  TASKS_EXTENSION_ID_V2,
} from '@modelcontextprotocol/ext-tasks/core/v2';
import { testStoreOption } from '@screen-service/store-postgres/testing';
import { createTestStore, seedConnection, type TestStore } from '@screen-service/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpc, seeded, sibling, startInstance, TTL_MS } from './task-kit.js';

type Answer = { kind: string; text: string; screen_id: string | null };
/** The answers of a tool result (a plain call's, or a completed task's `result`). */
const answersIn = (result: unknown) =>
  (result as { structuredContent?: { answers?: Answer[] } } | undefined)?.structuredContent?.answers ?? null;

let base: TestStore;
let ownedBase: TestStore | undefined;
const closers: (() => unknown)[] = [];
beforeAll(async () => {
  const option = await testStoreOption();
  base = option.testStore ?? createTestStore();
  ownedBase = base;
});
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  ownedBase?.close();
});

describe('svc_answers as a task (2026-07-28, Tasks extension)', () => {
  it('server/discover advertises the extension to the official 2.x client', async () => {
    const a = await startInstance(sibling(base));
    closers.push(() => a.close());
    const { token } = await seeded(a.core.store);
    const client = new Client(
      { name: 'svc-tasks', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(a.url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    try {
      expect(client.getServerCapabilities()?.extensions?.[TASKS_EXTENSION_ID_V2]).toEqual({});
    } finally {
      await client.close();
    }
  });

  it('returns a stored handle at once; working until a tap, then completed with the svc_answers result; across a restart and another instance', async () => {
    const a = await startInstance(sibling(base));
    const { user, token, agent } = await seeded(a.core.store);
    const shown = await a.core.threadOps.show(
      { userId: user.id, connectorId: agent.connectorId!, connectorKind: 'mcp', via: 'connector_token' },
      { lines: 'choose@lunch "Lunch?" Soup|Salad' },
    );
    const t0 = performance.now();
    const created = await rpc(a.url, token, 'tools/call', {
      name: 'svc_answers',
      arguments: { screen_id: shown.screen_id, wait: 25 },
    });
    const handleMs = performance.now() - t0;
    const handle = CreateTaskResultV2Schema.parse(created.result);
    expect(handle).toMatchObject({
      resultType: 'task',
      status: 'working',
      ttlMs: TTL_MS,
      pollIntervalMs: 500,
    });
    // Durable before it was returned: the row is in the database the other instances read.
    expect((await a.core.store.tasks.get(handle.taskId))?.status).toBe('working');
    expect(handleMs).toBeLessThan(5_000);

    const working = GetTaskResultV2Schema.parse(
      (await rpc(a.url, token, 'tasks/get', { taskId: handle.taskId })).result,
    );
    expect(working).toMatchObject({
      status: 'working',
      taskId: handle.taskId,
      pollIntervalMs: 500,
      ttlMs: TTL_MS,
    });

    // Restart: instance a stops; b (a new core and server on a new connection to the database) takes over.
    await a.close();
    const b = await startInstance(sibling(base));
    closers.push(() => b.close());
    await b.core.threads.tap(user.id, agent.id, {
      screen_id: shown.screen_id,
      event: { id: 'lunch', value: 'Soup' },
    });
    const c = await startInstance(sibling(base));
    closers.push(() => c.close());
    // Polled on two instances at once: the answer is claimed into the task once, both report it.
    const [fromB, fromC] = await Promise.all(
      [b, c].map(async (i) =>
        GetTaskResultV2Schema.parse((await rpc(i.url, token, 'tasks/get', { taskId: handle.taskId })).result),
      ),
    );
    for (const done of [fromB, fromC]) {
      expect(done?.status).toBe('completed');
      const answers = answersIn((done as { result?: unknown }).result);
      expect(answers).toHaveLength(1);
      expect(answers?.[0]).toMatchObject({ kind: 'tap', screen_id: shown.screen_id });
    }
    expect(fromB).toEqual(fromC);
    // Claimed into the task, not left for svc_answers; the same result svc_answers would have given.
    const plain = await rpc(b.url, token, 'tools/call', { name: 'svc_answers', arguments: {} }, false);
    expect(answersIn(plain.result)).toEqual([]);
    const completed = fromB as unknown as { result: Record<string, unknown> };
    expect(Object.keys(completed.result).sort()).toEqual(['content', 'resultType', 'structuredContent']);
    expect(completed.result.content).toEqual([{ type: 'text', text: expect.stringContaining('lunch') }]);
  });

  it("a task is reachable only by its connection: another account's token, or another connection of the same account, finds nothing", async () => {
    const a = await startInstance(sibling(base));
    closers.push(() => a.close());
    const owner = await seeded(a.core.store);
    const stranger = await seeded(a.core.store, 'stranger');
    const sameUserOther = await seedConnection(a.core.store, owner.user.id, ['other']);
    const created = CreateTaskResultV2Schema.parse(
      (await rpc(a.url, owner.token, 'tools/call', { name: 'svc_answers', arguments: {} })).result,
    );
    for (const token of [stranger.token, sameUserOther.token]) {
      for (const method of ['tasks/get', 'tasks/cancel']) {
        const r = await rpc(a.url, token, method, { taskId: created.taskId });
        expect(r.error?.code).toBe(-32602);
        expect(r.error?.message).toMatch(/No task tsk_[\w-]+ for this connection/);
      }
    }
    // Still the owner's, untouched by the attempts.
    const mine = GetTaskResultV2Schema.parse(
      (await rpc(a.url, owner.token, 'tasks/get', { taskId: created.taskId })).result,
    );
    expect(mine.status).toBe('working');
    // The owner may cancel it: it claims nothing after, and an answer stays for svc_answers.
    expect((await rpc(a.url, owner.token, 'tasks/cancel', { taskId: created.taskId })).result).toMatchObject({
      resultType: 'complete',
    });
    await a.core.threads.say(owner.user.id, owner.agent.id, { text: 'after the cancel' });
    const cancelled = GetTaskResultV2Schema.parse(
      (await rpc(a.url, owner.token, 'tasks/get', { taskId: created.taskId })).result,
    );
    expect(cancelled.status).toBe('cancelled');
    const plain = await rpc(a.url, owner.token, 'tools/call', { name: 'svc_answers', arguments: {} }, false);
    expect(answersIn(plain.result)?.map((x) => x.text)).toEqual(['after the cancel']);
  });

  it('expires at its TTL: tasks/get then finds nothing, and the answer stays for svc_answers', async () => {
    const a = await startInstance(sibling(base));
    closers.push(() => a.close());
    const { user, token, agent } = await seeded(a.core.store);
    const created = CreateTaskResultV2Schema.parse(
      (await rpc(a.url, token, 'tools/call', { name: 'svc_answers', arguments: {} })).result,
    );
    a.core.advance(TTL_MS);
    await a.core.threads.say(user.id, agent.id, { text: 'too late for the task' });
    const r = await rpc(a.url, token, 'tasks/get', { taskId: created.taskId });
    expect(r.error?.code).toBe(-32602);
    const plain = await rpc(a.url, token, 'tools/call', { name: 'svc_answers', arguments: {} }, false);
    expect(answersIn(plain.result)?.map((x) => x.text)).toEqual(['too late for the task']);
  });

  it('tasks/get, tasks/cancel and tasks/update without the extension declared: -32021 naming it', async () => {
    const a = await startInstance(sibling(base));
    closers.push(() => a.close());
    const { token } = await seeded(a.core.store);
    const created = CreateTaskResultV2Schema.parse(
      (await rpc(a.url, token, 'tools/call', { name: 'svc_answers', arguments: {} })).result,
    );
    for (const method of ['tasks/get', 'tasks/cancel', 'tasks/update']) {
      const r = await rpc(a.url, token, method, { taskId: created.taskId, inputResponses: {} }, false);
      expect(r.error).toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID_V2]: {} } } },
      });
    }
  });

  it('a call without the extension keeps the long poll (no task)', async () => {
    const a = await startInstance(sibling(base));
    closers.push(() => a.close());
    const { user, token, agent } = await seeded(a.core.store);
    await a.core.threads.say(user.id, agent.id, { text: 'hello' });
    const r = await rpc(a.url, token, 'tools/call', { name: 'svc_answers', arguments: { wait: 1 } }, false);
    expect(r.result?.resultType).toBe('complete');
    expect(answersIn(r.result)?.map((x) => x.text)).toEqual(['hello']);
  });
});
