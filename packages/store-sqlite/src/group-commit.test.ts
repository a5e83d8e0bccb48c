// Group commit on a real SQLite file: shared commits, a failing write rolled back alone, a failed commit.

import { AsyncResource } from 'node:async_hooks';
import { setImmediate as turn } from 'node:timers/promises';
import { createTestStore, type TestStore } from '@screen-service/test-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { createGroupCommit, WAIT_BELOW, WAIT_TURNS } from './group-commit.js';

let t: TestStore;
afterEach(() => t?.close());

function setup() {
  t = createTestStore({ prefix: 'svc-group-commit-' });
  t.db.exec('CREATE TABLE g (id INTEGER PRIMARY KEY, v TEXT NOT NULL UNIQUE)');
  const insert = t.db.prepare('INSERT INTO g (v) VALUES (?) RETURNING id');
  const commits = createGroupCommit(t.db);
  const put = (v: string) => commits.run(() => (insert.get(v) as { id: number }).id);
  const rows = () => (t.db.prepare('SELECT v FROM g ORDER BY id').all() as { v: string }[]).map((r) => r.v);
  return { commits, put, rows };
}

describe('createGroupCommit', () => {
  it('writes asked for in one turn share one transaction and keep their order', async () => {
    const { commits, put, rows } = setup();
    const other = new (t.db.constructor as new (f: string) => typeof t.db)(t.db.name);
    const seenByOther: string[][] = [];
    const look = () =>
      commits.run(() => seenByOther.push(other.prepare('SELECT v FROM g').pluck().all() as string[]));
    const [a, b, , c] = await Promise.all([put('a'), put('b'), look(), put('c')]);
    expect([a, b, c]).toEqual([1, 2, 3]);
    expect(rows()).toEqual(['a', 'b', 'c']);
    // While the batch ran, another connection saw none of it: a and b were not committed on their own.
    expect(seenByOther).toEqual([[]]);
    other.close();
  });

  it('nothing is written before the caller is told, and the write is durable when it is', async () => {
    const { put, rows } = setup();
    const pending = put('x');
    expect(rows()).toEqual([]);
    await pending;
    // A second connection (another process's view) sees the committed row.
    const other = new (t.db.constructor as new (f: string) => typeof t.db)(t.db.name);
    expect(other.prepare('SELECT v FROM g').pluck().all()).toEqual(['x']);
    other.close();
  });

  it('a write that throws is rolled back alone; the others of its batch commit', async () => {
    const { put, rows } = setup();
    const results = await Promise.allSettled([put('a'), put('a'), put('b')]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/UNIQUE/);
    expect(rows()).toEqual(['a', 'b']);
  });

  it("a flush's batch (ADR 0294) gathers its pass's writes and ends once, before COMMIT; a failing write's part is not in it", async () => {
    const { commits, rows } = setup();
    const insert = t.db.prepare('INSERT INTO g (v) VALUES (?)');
    const ended: string[][] = [];
    const put = (v: string) =>
      commits.run(() => {
        const b = commits.batch('test', () => {
          const items: string[] = [];
          const end = () => {
            ended.push([...items]);
            insert.run(`end:${items.join(',')}`);
          };
          return { items, end };
        });
        insert.run(v);
        b?.items.push(v);
        return b !== null;
      });
    const results = await Promise.allSettled([put('a'), put('a'), put('b')]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    // The plain pass threw before its end and rolled back; the isolated pass's batch holds the two kept.
    expect(ended).toEqual([['a', 'b']]);
    expect(rows()).toEqual(['a', 'b', 'end:a,b']);
    // Outside a flush (inside a transaction already open) there is no batch: the write works alone.
    let alone: boolean | undefined;
    t.db.transaction(() => {
      void commits.run(() => {
        alone = commits.batch('test', () => ({ end: () => {} })) === null;
      });
    })();
    expect(alone).toBe(true);
  });

  it('a failed commit rejects every write of the batch and stores none', async () => {
    const { put, rows } = setup();
    // A deferred foreign key fails at COMMIT, after every statement of the batch ran.
    t.db.exec(
      'CREATE TABLE parent (id INTEGER PRIMARY KEY); CREATE TABLE child (p INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)',
    );
    const commits = createGroupCommit(t.db);
    const orphan = commits.run(() => t.db.prepare('INSERT INTO child (p) VALUES (42)').run());
    const results = await Promise.allSettled([put('a'), orphan]);
    // put() uses its own group (its own flush), so only the orphan's batch fails.
    expect(results[0]!.status).toBe('fulfilled');
    expect(results[1]!.status).toBe('rejected');
    const both = await Promise.allSettled([
      commits.run(() => t.db.prepare("INSERT INTO g (v) VALUES ('c')").run()),
      commits.run(() => t.db.prepare('INSERT INTO child (p) VALUES (43)').run()),
    ]);
    expect(both.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(rows()).toEqual(['a']);
    expect(t.db.prepare('SELECT COUNT(*) FROM child').pluck().get()).toBe(0);
  });

  it('inside an open transaction a write runs at once, in that transaction', async () => {
    const { commits, rows } = setup();
    const insert = t.db.prepare('INSERT INTO g (v) VALUES (?)');
    let pending: Promise<unknown> | undefined;
    t.db.transaction(() => {
      pending = commits.run(() => insert.run('inner'));
      expect(rows()).toEqual(['inner']);
    })();
    await pending;
    expect(rows()).toEqual(['inner']);
  });

  it('a write that throws after its first statement leaves none of its rows; the batch commits the rest', async () => {
    const { commits, put, rows } = setup();
    const insert = t.db.prepare('INSERT INTO g (v) VALUES (?)');
    const halfway = () =>
      commits.run(() => {
        insert.run('half');
        insert.run('a'); // taken by the first put of the batch
      });
    const results = await Promise.allSettled([put('a'), halfway(), put('b')]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(rows()).toEqual(['a', 'b']);
  });

  it('a batch whose writes all pass runs each write once, inside the shared transaction', async () => {
    const { commits, rows } = setup();
    const insert = t.db.prepare('INSERT INTO g (v) VALUES (?)');
    let calls = 0;
    const write = (v: string) =>
      commits.run(() => {
        calls++;
        expect(t.db.inTransaction).toBe(true);
        insert.run(v);
      });
    await Promise.all([write('a'), write('b'), write('c')]);
    expect(calls).toBe(3);
    expect(rows()).toEqual(['a', 'b', 'c']);
  });

  it('inside an open transaction a write that throws leaves nothing behind in it', async () => {
    const { commits, rows } = setup();
    const insert = t.db.prepare('INSERT INTO g (v) VALUES (?)');
    let pending: Promise<unknown> | undefined;
    t.db.transaction(() => {
      insert.run('outer');
      pending = commits.run(() => {
        insert.run('half');
        throw new Error('boom');
      });
    })();
    await expect(pending).rejects.toThrow('boom');
    expect(rows()).toEqual(['outer']);
  });
});

describe('a flush waits while writes keep coming (ADR 0297)', () => {
  /** Writes that note which flush's batch they landed in: `flushes` lists each flush's writes. */
  function flushTracking() {
    const { commits, rows } = setup();
    const insert = t.db.prepare('INSERT INTO g (v) VALUES (?)');
    const flushes: string[][] = [];
    const put = (v: string) =>
      commits.run(() => {
        const b = commits.batch('flush', () => {
          const items: string[] = [];
          return { items, end: () => flushes.push(items) };
        });
        insert.run(v);
        b?.items.push(v);
      });
    return { put, rows, flushes };
  }

  it('writes that come turn after turn share one commit, up to WAIT_TURNS more turns', async () => {
    const { put, rows, flushes } = flushTracking();
    const written = [put('w0'), put('w1')];
    for (let i = 2; i < 10; i++) {
      await turn();
      written.push(put(`w${i}`));
    }
    await Promise.all(written);
    expect(rows()).toEqual(Array.from({ length: 10 }, (_, i) => `w${i}`));
    // The first turn's two writes, then one more for each turn the flush waited: no more than WAIT_TURNS.
    expect(flushes[0]).toEqual(Array.from({ length: 2 + WAIT_TURNS }, (_, i) => `w${i}`));
    expect(flushes.flat()).toEqual(rows());
  });

  it('a lone write is committed at the first turn: waiting costs nothing when nothing else comes', async () => {
    const { put, flushes } = flushTracking();
    let committed = false;
    void put('alone').then(() => {
      committed = true;
    });
    await turn();
    expect(committed).toBe(true);
    expect(flushes).toEqual([['alone']]);
  });

  it('a batch of WAIT_BELOW writes is flushed at once, without waiting for more', async () => {
    const { put, flushes } = flushTracking();
    const written = Array.from({ length: WAIT_BELOW }, (_, i) => put(`b${i}`));
    // Writes of the next turn: they would join a batch that waited.
    await turn();
    const late = put('late');
    await Promise.all([...written, late]);
    expect(flushes.map((f) => f.length)).toEqual([WAIT_BELOW, 1]);
  });
});

describe('transaction bodies in the group commit (ADR 0241)', () => {
  const user = (email: string) => ({
    id: `usr_${email}`,
    email: `${email}@example.com`,
    passwordHash: 'x',
    firstName: null,
    createdAt: 1,
    suspendedAt: null,
  });

  it('bodies and writes asked for in one turn share one commit, in order', async () => {
    t = createTestStore({ prefix: 'svc-group-commit-' });
    const other = new (t.db.constructor as new (f: string) => typeof t.db)(t.db.name);
    const seen: number[] = [];
    const count = () => other.prepare('SELECT COUNT(*) FROM users').pluck().get() as number;
    await Promise.all([
      t.store.transaction(async (tx) => tx.users.create(user('a'))),
      t.store.users.create(user('b')),
      t.store.transaction(async (tx) => {
        await tx.users.create(user('c'));
        // Another connection sees none of the batch while its bodies run: one commit at the end.
        seen.push(count());
      }),
    ]);
    expect(seen).toEqual([1]);
    expect(count()).toBe(3);
    other.close();
  });

  it('a call of another request while bodies run waits for the end and never sees uncommitted work', async () => {
    t = createTestStore({ prefix: 'svc-group-commit-' });
    // Bound here, so it runs as another request would: outside the body's async context.
    const otherRequest = AsyncResource.bind((id: string) => t.store.users.findById(id));
    const reads: Promise<unknown>[] = [];
    const events: string[] = [];
    const body = t.store.transaction(async (tx) => {
      await tx.users.create(user('uncommitted'));
      reads.push(
        otherRequest('usr_uncommitted').then((row) => {
          events.push('read answered');
          return row;
        }),
      );
      await tx.users.findById('usr_uncommitted');
      events.push('body ends');
      throw new Error('rolled back');
    });
    await expect(body).rejects.toThrow('rolled back');
    expect(await Promise.all(reads)).toEqual([null, null]);
    // The body ran twice (its batch failed, then each body alone); each read waited for the flush's end.
    expect(events).toEqual(['body ends', 'body ends', 'read answered', 'read answered']);
  });

  it('a body left waiting on a timer is refused; the rest of its batch commits, and no call deadlocks', async () => {
    t = createTestStore({ prefix: 'svc-group-commit-' });
    const stuck = t.store.transaction(async (tx) => {
      await tx.users.create(user('stuck'));
      await new Promise((resolve) => setTimeout(resolve, 30));
      return tx.users.findById('usr_stuck');
    });
    const after = t.store.transaction(async (tx) => tx.users.create(user('after')));
    await expect(stuck).rejects.toMatchObject({ code: 'TX_STALLED' });
    await expect(after).resolves.toMatchObject({ id: 'usr_after' });
    expect(await t.store.users.findById('usr_stuck')).toBeNull();
    expect(t.db.inTransaction).toBe(false);
  });

  it('the memo is open only inside writes, and forgets what a rolled-back write kept', async () => {
    const { commits, put } = setup();
    expect(commits.memo()).toBeNull();
    const kept = await commits.run(() => {
      commits.memo()!.set('fact', 1);
      return commits.memo()!.get('fact');
    });
    expect(kept).toBe(1);
    expect(await commits.run(() => commits.memo()!.get('fact'))).toBe(1);
    // A write that keeps a fact, then throws: its savepoint rolled back, the next write of the turn sees none.
    const [failed, seen] = await Promise.allSettled([
      commits.run(() => {
        commits.memo()!.set('fact', 2);
        throw new Error('no');
      }),
      commits.run(() => commits.memo()!.get('fact')),
    ]);
    expect(failed.status).toBe('rejected');
    expect(seen).toEqual({ status: 'fulfilled', value: undefined });
    // A write outside the group commit on this connection (a plain statement) empties it before the next flush.
    await commits.run(() => commits.memo()!.set('fact', 3));
    t.db.prepare("INSERT INTO g (v) VALUES ('outside')").run();
    expect(await commits.run(() => commits.memo()!.get('fact'))).toBeUndefined();
    // A flush of writes only keeps it.
    await commits.run(() => commits.memo()!.set('fact', 4));
    await put('inside');
    expect(await commits.run(() => commits.memo()!.get('fact'))).toBe(4);
  });
});
