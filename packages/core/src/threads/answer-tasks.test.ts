// The task rules (ADR 0265) and the resumable wait (ADR 0274) on a real SQLite file: a task resolves its thread
// like `answers`, claims once into its row, is its connection's only, expires; a cursor acknowledges.
import { type ConnectionPrincipal, createConnectionAuth } from '@screen-service/registry/hosts';
import { createNotifier, ServiceError } from '@screen-service/registry/kernel';
import { createTestStore, seedConnection, seedUser, type TestStore } from '@screen-service/test-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answersCursor, readAnswersCursor } from './answer-cursor.js';
import { createThreadCore } from './thread-core.js';
import { createThreadOps, type ThreadOps } from './thread-ops.js';

let h: TestStore;
let ops: ThreadOps;
let clock = 1_000_000;
let principal: ConnectionPrincipal;
let userId: string;
let agentIds: string[];
const notifier = createNotifier();

beforeEach(async () => {
  h = createTestStore();
  clock = Date.now();
  ops = createThreadOps({
    store: h.store,
    notifier,
    now: () => clock,
    answerTasks: { ttlMs: 60_000, pollMs: 100 },
  });
  const user = await seedUser(h.store);
  userId = user.id;
  const { token, agents } = await seedConnection(h.store, user.id, ['coach', 'cook']);
  agentIds = agents.map((a) => a.id);
  principal = await createConnectionAuth({ store: h.store }).verify(token);
});
afterEach(() => h.close());

const personSay = (agentId: string, text: string) =>
  createThreadCore({ store: h.store, notifier, now: () => clock }).appendPersonText(userId, agentId, text);

async function code(p: Promise<unknown>) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ServiceError);
  return (err as ServiceError).code;
}

describe('answer tasks', () => {
  it("start reads the thread as answers does; get completes with the thread's answers, once", async () => {
    await personSay(agentIds[1]!, 'before the screen');
    const shown = await ops.show(principal, { lines: 'confirm@go "Go?"', agent: 'cook' });
    const task = await ops.tasks.start(principal, { screen_id: shown.screen_id });
    expect(task).toMatchObject({ status: 'working', ttlMs: 60_000, pollMs: 100 });
    expect((await ops.tasks.get(principal, task.id)).status).toBe('working');
    await personSay(agentIds[1]!, 'after');
    const done = await ops.tasks.get(principal, task.id);
    expect(done.status).toBe('completed');
    expect(done.result?.agent.handle).toBe('cook');
    expect(done.result?.answers.map((a) => a.text)).toEqual(['after']);
    // Polled again: the same answers, nothing claimed again; the earlier row stays for answers.
    expect((await ops.tasks.get(principal, task.id)).result?.answers.map((a) => a.text)).toEqual(['after']);
    const rest = await ops.answers(principal, { agent: 'cook' });
    expect(rest.answers.map((a) => a.text)).toEqual(['before the screen']);
  });

  it('refuses what answers refuses, and a task of another connection or past its TTL is not found', async () => {
    expect(await code(ops.tasks.start(principal, { screen_id: 'scr_nope' }))).toBe('SCREEN_NOT_FOUND');
    const task = await ops.tasks.start(principal, {});
    const other = await seedConnection(h.store, userId, ['third']);
    const otherPrincipal = await createConnectionAuth({ store: h.store }).verify(other.token);
    expect(await code(ops.tasks.get(otherPrincipal, task.id))).toBe('NOT_FOUND');
    expect(await code(ops.tasks.cancel(otherPrincipal, task.id))).toBe('NOT_FOUND');
    clock += 60_000;
    expect(await code(ops.tasks.get(principal, task.id))).toBe('NOT_FOUND');
  });

  it('a revoked connection cannot poll its task, and the answer stays unclaimed', async () => {
    const task = await ops.tasks.start(principal, {});
    await personSay(agentIds[0]!, 'kept');
    await h.store.connectors.revoke(principal.connectorId, clock);
    expect(await code(ops.tasks.get(principal, task.id))).toBe('CONNECTOR_REVOKED');
    expect(await h.store.threads.countUnhandled({ agentId: agentIds[0]!, userId })).toBe(1);
  });

  it('a task whose connection is removed after its check and before its claim claims nothing (ADR 0298)', async () => {
    const task = await ops.tasks.start(principal, {});
    // Right before the claim's transaction runs (the check already passed): removed in the app, then a message.
    const transaction = h.store.transaction;
    let raced = false;
    h.store.transaction = (async (fn: Parameters<typeof transaction>[0]) => {
      h.store.transaction = transaction;
      await h.store.connectors.revoke(principal.connectorId, clock);
      await personSay(agentIds[0]!, 'sent after the removal');
      raced = true;
      return transaction.call(h.store, fn);
    }) as typeof transaction;
    expect(await code(ops.tasks.get(principal, task.id))).toBe('CONNECTOR_REVOKED');
    expect(raced).toBe(true);
    expect((await h.store.tasks.get(task.id))?.status).toBe('working');
    expect(await h.store.threads.countUnhandled({ agentId: agentIds[0]!, userId })).toBe(1);
  });

  it('a cancelled task claims nothing after', async () => {
    const task = await ops.tasks.start(principal, {});
    expect((await ops.tasks.cancel(principal, task.id)).status).toBe('cancelled');
    await personSay(agentIds[0]!, 'for answers');
    expect((await ops.tasks.get(principal, task.id)).status).toBe('cancelled');
    expect((await ops.answers(principal, {})).answers.map((a) => a.text)).toEqual(['for answers']);
  });
});

describe('the resumable wait (cursor)', () => {
  it('returns unacknowledged answers until a cursor acknowledges them', async () => {
    await personSay(agentIds[0]!, 'one');
    const first = await ops.answers(principal, { cursor: '' });
    expect(first.answers.map((a) => a.text)).toEqual(['one']);
    // The result was "lost": the same cursor again gets the same answer.
    const again = await ops.answers(principal, { cursor: '' });
    expect(again.answers.map((a) => a.id)).toEqual(first.answers.map((a) => a.id));
    expect(again.cursor).toBe(first.cursor);
    const acked = await ops.answers(principal, { cursor: first.cursor! });
    expect(acked).toMatchObject({ answers: [], cursor: '' });
    expect(await h.store.threads.countUnhandled({ agentId: agentIds[0]!, userId })).toBe(0);
  });

  it('a connection removed right before its read ran sees nothing (ADR 0301)', async () => {
    // Right before the cursor's read runs (the connection's check already passed): the person removes the
    // connection in the app and writes.
    const threads = h.store.threads;
    const pending = threads.pendingForHost;
    let raced = false;
    threads.pendingForHost = async (...args) => {
      threads.pendingForHost = pending;
      await h.store.connectors.revoke(principal.connectorId, clock);
      await personSay(agentIds[0]!, 'sent after the removal');
      raced = true;
      return pending.apply(threads, args);
    };
    expect(await code(ops.answers(principal, { cursor: '' }))).toBe('CONNECTOR_REVOKED');
    expect(raced).toBe(true);
    // Not seen, and not taken: the message waits for the connection that serves the agent next.
    expect(await h.store.threads.countUnhandled({ agentId: agentIds[0]!, userId })).toBe(1);
  });

  it('a connection suspended right before its read ran sees nothing', async () => {
    const threads = h.store.threads;
    const pending = threads.pendingForHost;
    threads.pendingForHost = async (...args) => {
      threads.pendingForHost = pending;
      await personSay(agentIds[0]!, 'sent while suspended');
      // What an operator's suspension leaves in the store (no repository method sets it).
      await h.inspect!.update('connectors', { suspended_at: clock }, { id: principal.connectorId });
      return pending.apply(threads, args);
    };
    expect(await code(ops.answers(principal, { cursor: '' }))).toBe('SUSPENDED');
  });

  it("a cursor acknowledges only its own thread's rows, and a malformed one is refused", async () => {
    await personSay(agentIds[1]!, "cook's");
    const cooks = await ops.answers(principal, { agent: 'cook', cursor: '' });
    // Passed on the coach's thread: the cook's row is not acknowledged.
    await ops.answers(principal, { agent: 'coach', cursor: cooks.cursor! });
    expect(await h.store.threads.countUnhandled({ agentId: agentIds[1]!, userId })).toBe(1);
    expect(await code(ops.answers(principal, { cursor: 'not a cursor!' }))).toBe('INVALID_INPUT');
    expect(() => readAnswersCursor(answersCursor([]), 50)).not.toThrow();
  });
});
