// The connection's lock on a real SQLite file: a table batch that awaits keeps the group commit's writes out of its transaction.
import { setImmediate as turn } from 'node:timers/promises';
import { createTestStore, type TestStore } from '@screen-service/test-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { groupCommitOf } from './group-commit.js';

let t: TestStore;
afterEach(() => t?.close());

const REF = { owner: 'u1', holder: 'a1', name: 'W' };

function setup() {
  t = createTestStore({ prefix: 'svc-store-lock-' });
  t.db.exec('CREATE TABLE g (id INTEGER PRIMARY KEY, v TEXT NOT NULL)');
  const insert = t.db.prepare('INSERT INTO g (v) VALUES (?)');
  const commits = groupCommitOf(t.db);
  // A service write as the thread and push repositories make them: queued for the next group commit.
  const serviceWrite = (v: string) => commits.run(() => insert.run(v).changes);
  const serviceRows = () =>
    (t.db.prepare('SELECT v FROM g ORDER BY id').all() as { v: string }[]).map((r) => r.v);
  return { tables: t.store.relay.tables, serviceWrite, serviceRows };
}

describe('table batches and the group commit share one lock per connection', () => {
  it('service writes asked for while a batch awaits land after it commits, in their own transaction', async () => {
    const { tables, serviceWrite, serviceRows } = setup();
    const written: Promise<number>[] = [];
    let seenInside: string[] = [];
    await tables.batch(async () => {
      await tables.defineTable(REF, [{ name: 'A', type: 'number' }]);
      written.push(serviceWrite('during-1'));
      // Real turns of the event loop: the group commit's flush (setImmediate) would run here without the lock.
      await turn();
      await turn();
      written.push(serviceWrite('during-2'));
      await tables.insertRow(REF, undefined, { A: 1 });
      await turn();
      seenInside = serviceRows();
    });
    expect(seenInside).toEqual([]);
    expect(await Promise.all(written)).toEqual([1, 1]);
    expect(serviceRows()).toEqual(['during-1', 'during-2']);
    expect((await tables.exportTable(REF))!.rows).toEqual([{ key: 'r1', values: { A: 1 } }]);
    expect(t.db.inTransaction).toBe(false);
  });

  it('a batch that throws rolls back only its own writes; the service writes it waited out are kept', async () => {
    const { tables, serviceWrite, serviceRows } = setup();
    const written: Promise<number>[] = [];
    await expect(
      tables.batch(async () => {
        await tables.defineTable(REF, [{ name: 'A', type: 'number' }]);
        await tables.insertRow(REF, 'k', { A: 7 });
        written.push(serviceWrite('kept'));
        await turn();
        throw new Error('the batch fails');
      }),
    ).rejects.toThrow('the batch fails');
    expect(await Promise.all(written)).toEqual([1]);
    expect(serviceRows()).toEqual(['kept']);
    expect(await tables.getTable(REF)).toBeUndefined();
    expect(t.db.inTransaction).toBe(false);
  });

  it('two batches asked for at once run one after the other, never nested', async () => {
    const { tables } = setup();
    const order: string[] = [];
    const batch = (name: string) =>
      tables.batch(async () => {
        order.push(`${name} begins`);
        await tables.defineTable({ ...REF, name }, [{ name: 'A', type: 'number' }]);
        await turn();
        order.push(`${name} ends`);
        if (name === 'B') throw new Error('B fails');
      });
    const results = await Promise.allSettled([batch('A'), batch('B'), batch('C')]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(order).toEqual(['A begins', 'A ends', 'B begins', 'B ends', 'C begins', 'C ends']);
    expect((await tables.listTables('u1')).map((x) => x.name)).toEqual(['A', 'C']);
  });
});
