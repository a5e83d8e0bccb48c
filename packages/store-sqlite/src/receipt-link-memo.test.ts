// The tap path's memory (ADR 0290) on a real SQLite file: a thread's newest receipt link is kept by the
// writer, and never wrong: a write by this process outside the group commit, a commit by another connection
// on the same file (as `svc` makes while the server runs) and a rolled-back flush are all seen.
import { newId } from '@screen-service/registry/kernel';
import type { NewMessage, ReceiptRecord, Store } from '@screen-service/registry/model';
import { createTestStore, seedAgent, seedUser, type TestStore } from '@screen-service/test-kit';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from './sqlite-store.js';

let t: TestStore;
const others: Database.Database[] = [];
afterEach(() => {
  for (const db of others.splice(0)) db.close();
  t?.close();
});

/** A second connection on the same file, with its own store: what the `svc` CLI opens while the server runs. */
function secondProcess(): Store {
  const db = new Database(t.file);
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  others.push(db);
  return createSqliteStore(db);
}

const NOW = 1_000_000;

describe("a thread's newest receipt link, kept by the writer", () => {
  async function thread() {
    t = createTestStore({ prefix: 'svc-links-' });
    const user = await seedUser(t.store);
    const agent = await seedAgent(t.store, user.id);
    return { agentId: agent.id, userId: user.id };
  }
  let version = 1;
  const tap = (k: { agentId: string; userId: string }, over: Partial<NewMessage> = {}): NewMessage => ({
    id: newId('msg_'),
    ...k,
    sender: 'person',
    kind: 'tap',
    body: 'Yes',
    createdAt: NOW,
    ...over,
  });
  // A receipt that names the link it was built on, so the chain can be checked from the rows alone.
  const signed = (store: Store, m: NewMessage) =>
    store.threads.appendSigned(
      m,
      ++version,
      (row, last): ReceiptRecord => ({
        id: `rcp_${row.id}`,
        userId: row.userId,
        agentId: row.agentId,
        seq: (last?.seq ?? 0) + 1,
        messageId: row.id,
        kid: 'k1',
        jws: `after:${last?.hash ?? 'none'}`,
        hash: `h_${row.id}`,
        createdAt: row.createdAt,
      }),
    );
  /** Every receipt of the thread names the one before it, from seq 1 on. */
  const chain = (k: { agentId: string; userId: string }) => {
    const rows = t.db
      .prepare('SELECT seq, jws, hash FROM answer_receipts WHERE agent_id = ? AND user_id = ? ORDER BY seq')
      .all(k.agentId, k.userId) as { seq: number; jws: string; hash: string }[];
    rows.forEach((r, i) => {
      expect(r.seq).toBe(i + 1);
      expect(r.jws).toBe(`after:${i === 0 ? 'none' : rows[i - 1]!.hash}`);
    });
    return rows.length;
  };

  it('answers of one turn and of the next link in order', async () => {
    const k = await thread();
    await Promise.all([signed(t.store, tap(k)), signed(t.store, tap(k)), signed(t.store, tap(k))]);
    await signed(t.store, tap(k));
    expect(chain(k)).toBe(4);
  });

  it('a thread deleted by this process between answers starts a new chain', async () => {
    const k = await thread();
    await signed(t.store, tap(k));
    await signed(t.store, tap(k));
    await t.store.threads.deleteThread(k);
    await signed(t.store, tap(k));
    expect(chain(k)).toBe(1);
  });

  it('a receipt written by another connection, or in a transaction body, is linked after', async () => {
    const k = await thread();
    await signed(t.store, tap(k));
    await signed(secondProcess(), tap(k));
    await signed(t.store, tap(k));
    expect(chain(k)).toBe(3);
    const m = await t.store.threads.append(tap(k), ++version);
    await t.store.transaction(async (tx) => {
      const last = await tx.receipts.last(k);
      await tx.receipts.append({
        id: `rcp_${m.id}`,
        ...k,
        seq: (last?.seq ?? 0) + 1,
        messageId: m.id,
        kid: 'k1',
        jws: `after:${last?.hash ?? 'none'}`,
        hash: `h_${m.id}`,
        createdAt: NOW,
      });
    });
    await signed(t.store, tap(k));
    expect(chain(k)).toBe(5);
    // Another connection removes the thread: the next answer starts over.
    await secondProcess().threads.deleteThread(k);
    await signed(t.store, tap(k));
    expect(chain(k)).toBe(1);
  });

  it('an answer of a flush that rolled back is not linked to', async () => {
    const k = await thread();
    await signed(t.store, tap(k));
    await t.store.threads.append(tap(k, { idemKey: 'once' }), ++version);
    // One turn: the answer, then a write that fails (the key is taken) and rolls the first pass back.
    const [ok, refused] = await Promise.allSettled([
      signed(t.store, tap(k)),
      t.store.threads.append(tap(k, { idemKey: 'once' }), ++version),
    ]);
    expect(ok.status).toBe('fulfilled');
    expect(refused.status).toBe('rejected');
    await signed(t.store, tap(k));
    expect(chain(k)).toBe(3);
  });
});
