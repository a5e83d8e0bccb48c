// Conformance cases: task-augmented svc_answers (ADR 0265): a task settles once, and its answers are claimed
// into it in one transaction (rolled back together, never claimed twice by two pollers at once).
import { newId } from '@screen-service/registry/kernel';
import type { Store } from '@screen-service/registry/model';
import { expect } from 'vitest';
import { type ConformanceCase, conformanceCase as c } from './cases.js';
import { fixtures } from './fixtures.js';

/** A user, an agent, a connection and one working task on their thread. */
async function taskOnThread(store: Store, expiresAt = 10_000) {
  const f = fixtures(store);
  const user = await f.user();
  const agent = await f.agent(user.id, 'a');
  const connector = await f.connector(user.id);
  const key = { agentId: agent.id, userId: user.id };
  const id = newId('tsk_');
  await store.tasks.create({ id, ...key, connectorId: connector.id, afterSeq: 0, createdAt: 5, expiresAt });
  return { f, key, id, connectorId: connector.id };
}

/** The rules' claim: lock the task, claim its thread's answers, settle it with them (or leave it working). */
function claimInto(store: Store, id: string, version: number, fail = false) {
  return store.transaction(async (tx) => {
    const task = await tx.tasks.get(id, { forUpdate: true });
    if (task?.status !== 'working') return [];
    const key = { agentId: task.agentId, userId: task.userId };
    const rows = await tx.threads.claimAnswers({
      ...key,
      afterSeq: task.afterSeq,
      limit: 10,
      at: 7,
      version,
    });
    if (rows.length === 0) return [];
    if (
      !(await tx.tasks.settle(
        id,
        'completed',
        rows.map((r) => r.id),
        7,
      ))
    )
      throw new Error('settled twice');
    if (fail) throw new Error('after the claim');
    return rows.map((r) => r.body);
  });
}

export const taskCases: ConformanceCase[] = [
  c(
    ['tasks.create', 'tasks.get', 'tasks.settle'],
    'a task reads back as written, working, and settles once',
    async (store) => {
      const { key, id, connectorId } = await taskOnThread(store);
      expect(await store.tasks.get(id)).toEqual({
        id,
        ...key,
        connectorId,
        afterSeq: 0,
        status: 'working',
        messageIds: [],
        createdAt: 5,
        updatedAt: 5,
        expiresAt: 10_000,
      });
      expect(await store.tasks.get('tsk_none')).toBeNull();
      expect(await store.tasks.settle(id, 'completed', ['msg_a', 'msg_b'], 9)).toBe(true);
      expect(await store.tasks.settle(id, 'cancelled', [], 10)).toBe(false);
      expect(await store.tasks.get(id)).toMatchObject({
        status: 'completed',
        messageIds: ['msg_a', 'msg_b'],
        updatedAt: 9,
      });
    },
  ),
  c(
    ['tasks.get', 'tasks.settle', 'threads.claimAnswers'],
    "a task's answers are claimed into it in one transaction: a failure after the claim undoes both",
    async (store) => {
      const { f, key, id } = await taskOnThread(store);
      await store.threads.append(f.message(key, 'person', 'Soup'), f.version());
      await expect(claimInto(store, id, f.version(), true)).rejects.toThrow('after the claim');
      expect((await store.tasks.get(id))?.status).toBe('working');
      expect(await store.threads.countUnhandled(key)).toBe(1);
      expect(await claimInto(store, id, f.version())).toEqual(['Soup']);
      expect(await store.threads.countUnhandled(key)).toBe(0);
      expect((await store.tasks.get(id))?.status).toBe('completed');
    },
  ),
  c(
    ['tasks.get', 'tasks.settle', 'transaction'],
    'two pollers of one task at once: its answers are claimed once, into it',
    async (store) => {
      const { f, key, id } = await taskOnThread(store);
      await store.threads.append(f.message(key, 'person', 'p1'), f.version());
      await store.threads.append(f.message(key, 'person', 'p2'), f.version());
      const [x, y] = await Promise.all([
        claimInto(store, id, f.version()),
        claimInto(store, id, f.version()),
      ]);
      expect([...x, ...y]).toEqual(['p1', 'p2']);
      const task = await store.tasks.get(id);
      const rows = await Promise.all(task!.messageIds.map((m) => store.threads.getMessage(m)));
      expect(rows.map((r) => r?.body)).toEqual(['p1', 'p2']);
    },
  ),
  c(['tasks.deleteExpired'], 'expired tasks go, the others stay', async (store) => {
    const early = await taskOnThread(store, 100);
    const late = await taskOnThread(store, 200);
    expect(await store.tasks.deleteExpired(150, 10)).toBe(1);
    expect(await store.tasks.get(early.id)).toBeNull();
    expect(await store.tasks.get(late.id)).not.toBeNull();
    expect(await store.tasks.deleteExpired(150, 10)).toBe(0);
  }),
];
