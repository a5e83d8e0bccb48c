// Conformance cases: receipts of answers (ADR 0261): a chain per thread, one receipt per seq, keys rotate.
import type { ReceiptBuilder, ReceiptRecord, Store } from '@screen-service/registry/model';
import { expect } from 'vitest';
import { type ConformanceCase, conformanceCase as c } from './cases.js';
import { fixtures, outcome } from './fixtures.js';

async function thread(store: Store, handle: string) {
  const f = fixtures(store);
  const user = await f.user();
  const agent = await f.agent(user.id, handle);
  return { f, key: { agentId: agent.id, userId: user.id } };
}

const receipt = (
  key: { agentId: string; userId: string },
  seq: number,
  extra: Partial<ReceiptRecord> = {},
) => ({
  id: `rcp_${key.agentId}_${seq}`,
  ...key,
  seq,
  messageId: `msg_${seq}`,
  kid: 'k1',
  jws: `h.p${seq}.s`,
  hash: `hash${seq}`,
  createdAt: 100 + seq,
  ...extra,
});

export const receiptCases: ConformanceCase[] = [
  c(
    ['receipts.append', 'receipts.last', 'receipts.listByThread', 'receipts.listByMessages', 'transaction'],
    'receipts chain per thread: the newest is last, a seq is taken once, lists read in chain order',
    async (store) => {
      const a = await thread(store, 'a');
      const b = await thread(store, 'b');
      expect(await store.receipts.last(a.key)).toBeNull();
      await store.transaction(async (tx) => {
        await tx.receipts.append(receipt(a.key, 1));
        await tx.receipts.append(receipt(a.key, 2));
      });
      await store.receipts.append(receipt(b.key, 1, { messageId: 'msg_b1' }));
      expect(await store.receipts.last(a.key)).toEqual(receipt(a.key, 2));
      expect(await outcome(store.receipts.append(receipt(a.key, 2, { id: 'rcp_again' })))).not.toBe('ok');
      expect((await store.receipts.listByThread(a.key, 0, 10)).map((r) => r.seq)).toEqual([1, 2]);
      expect((await store.receipts.listByThread(a.key, 1, 10)).map((r) => r.seq)).toEqual([2]);
      expect((await store.receipts.listByThread(a.key, 0, 1)).map((r) => r.seq)).toEqual([1]);
      expect(
        (await store.receipts.listByMessages(['msg_2', 'msg_b1', 'nope'])).map((r) => r.id).sort(),
      ).toEqual([receipt(a.key, 2).id, `rcp_${b.key.agentId}_1`].sort());
      expect(await store.receipts.listByMessages([])).toEqual([]);
      await store.threads.deleteThread(a.key);
      expect(await store.receipts.last(a.key)).toBeNull();
      expect(await store.receipts.last(b.key)).not.toBeNull();
    },
  ),
  c(
    ['threads.appendSigned'],
    'an answer and its receipt in one write: the receipt is built from the row and the newest receipt',
    async (store) => {
      const { f, key } = await thread(store, 'signed');
      await store.receipts.append(receipt(key, 1));
      const seen: (number | null)[] = [];
      const row = await store.threads.appendSigned(
        { ...f.message(key, 'person', 'tap'), kind: 'tap' },
        f.version(),
        (m, last) => {
          seen.push(last?.seq ?? null);
          return receipt(key, (last?.seq ?? 0) + 1, { messageId: m.id });
        },
      );
      expect(seen).toEqual([1]);
      expect(await store.receipts.last(key)).toMatchObject({ seq: 2, messageId: row?.id });
      expect((await store.threads.getMessage(row!.id))?.body).toBe('tap');
      // A receipt that takes a seq already taken fails the write: neither the row nor the receipt is kept.
      const failed = await outcome(
        store.threads.appendSigned({ ...f.message(key, 'person', 'again'), kind: 'tap' }, f.version(), (m) =>
          receipt(key, 2, { id: 'rcp_dup', messageId: m.id }),
        ),
      );
      expect(failed).not.toBe('ok');
      expect((await store.threads.page({ ...key, limit: 10 })).map((m) => m.body)).toEqual(['tap']);
    },
  ),
  c(
    ['threads.appendSigned', 'deadlines.stakes'],
    "an answer's write with `settles` (ADR 0299): it reads the screen's stakes in its transaction and writes nothing when they settle something",
    async (store) => {
      const { f, key } = await thread(store, 'stakes');
      const screen = (id: string) =>
        store.threads.appendScreen(
          { ...f.message(key), kind: 'screen', body: 'x', screenId: id },
          { id, lines: 'confirm "Go?"', ops: [], taps: [{ id: 'n1', preset: 'confirm' }] },
          f.version(),
        );
      await screen('scr_free');
      await screen('scr_due');
      await store.deadlines.create({
        screenId: 'scr_due',
        ...key,
        dueAt: 800,
        nextAt: 800,
        plan: {},
        createdAt: 1,
      });
      const seen: unknown[] = [];
      const settles = (s: { deadline: string; openNotice: boolean }) => {
        seen.push(s);
        return s.deadline === 'pending';
      };
      const answer = (screenId: string, body: string) =>
        store.threads.appendSigned(
          { ...f.message(key, 'person', body), kind: 'tap', screenId },
          f.version(),
          (m, last) => receipt(key, (last?.seq ?? 0) + 1, { id: `rcp_${m.id}`, messageId: m.id }),
          settles,
        );
      // The deadline is pending: nothing written, neither the row nor its receipt.
      expect(await answer('scr_due', 'late')).toBeNull();
      // Nothing at stake: written, with its receipt.
      const free = await answer('scr_free', 'free');
      expect(free?.body).toBe('free');
      expect(seen).toEqual([
        { deadline: 'pending', openNotice: false },
        { deadline: 'none', openNotice: false },
      ]);
      expect((await store.threads.page({ ...key, limit: 10 })).map((m) => m.body)).not.toContain('late');
      expect((await store.receipts.listByThread(key, 0, 10)).map((r) => r.messageId)).toEqual([free?.id]);
      // Settled: the same screen's answer is written.
      await store.deadlines.settle('scr_due', 50, 'answered');
      expect((await answer('scr_due', 'after'))?.body).toBe('after');
    },
  ),
  c(
    ['threads.appendSigned', 'receipts.append', 'receipts.listByThread', 'receipts.listByMessages'],
    'format 2 (ADR 0294): a store that keeps batches signs the answers written together once and joins the batch on reads; others write format 1',
    async (store) => {
      const a = await thread(store, 'fa');
      const b = await thread(store, 'fb');
      const signed: string[][] = [];
      const builder: ReceiptBuilder = (m, last) =>
        receipt({ agentId: m.agentId, userId: m.userId }, (last?.seq ?? 0) + 1, {
          id: `rcp_${m.id}`,
          messageId: m.id,
        });
      builder.leaf = (m, last) => ({
        ...receipt({ agentId: m.agentId, userId: m.userId }, (last?.seq ?? 0) + 1, {
          id: `rcp_${m.id}`,
          messageId: m.id,
        }),
        jws: `{"m":"${m.id}"}`,
        hash: `leaf_${m.id}`,
      });
      builder.signBatch = (leaves) => {
        signed.push([...leaves]);
        return {
          kid: 'k1',
          root: `root(${leaves.join(',')})`,
          jws: `h.root${signed.length}.s`,
          leaves,
          createdAt: 7,
        };
      };
      const tap = (k: typeof a) =>
        store.threads.appendSigned(
          { ...k.f.message(k.key, 'person', 'tap'), kind: 'tap' },
          k.f.version(),
          builder,
        );
      // Asked in one turn: one write each, and on SQLite one flush.
      const rows = await Promise.all([tap(a), tap(b), tap(a)]);
      const listed = [
        ...(await store.receipts.listByThread(a.key, 0, 10)),
        ...(await store.receipts.listByThread(b.key, 0, 10)),
      ];
      if (!store.receipts.keepsBatches) {
        expect(signed).toEqual([]);
        expect(listed.map((r) => [r.seq, r.jws, r.batch])).toEqual([
          [1, 'h.p1.s', undefined],
          [2, 'h.p2.s', undefined],
          [1, 'h.p1.s', undefined],
        ]);
        return;
      }
      expect(signed).toEqual([rows.map((r) => `leaf_${r!.id}`)]);
      expect(listed.map((r) => [r.seq, r.hash, r.batch?.index])).toEqual([
        [1, `leaf_${rows[0]!.id}`, 0],
        [2, `leaf_${rows[2]!.id}`, 2],
        [1, `leaf_${rows[1]!.id}`, 1],
      ]);
      expect(listed[0]!.batch?.signed).toMatchObject({ jws: 'h.root1.s', leaves: signed[0], kid: 'k1' });
      expect((await store.receipts.listByMessages([rows[1]!.id]))[0]?.batch?.signed?.root).toBe(
        `root(${signed[0]!.join(',')})`,
      );
      // A receipt written alone (a transaction's) carries its one-leaf batch.
      const one = {
        kid: 'k2',
        root: 'leaf_x',
        jws: 'h.one.s',
        leaves: ['leaf_x'],
        createdAt: 9,
      };
      await store.transaction(async (tx) => {
        await tx.receipts.append(receipt(b.key, 2, { hash: 'leaf_x', batch: { index: 0, signed: one } }));
      });
      const alone = (await store.receipts.last(b.key))?.batch;
      expect(alone).toEqual({ id: expect.any(Number), index: 0, signed: one });
      expect(alone?.id).not.toBe(listed[0]!.batch?.id);
    },
  ),
  c(
    ['receipts.rotateKey', 'receipts.listKeys'],
    'a new key retires the one in use; both stay listed',
    async (store) => {
      const key = (kid: string, createdAt: number) => ({
        kid,
        publicJwk: { kty: 'OKP', crv: 'Ed25519', x: kid },
        sealedPrivate: `sealed-${kid}`,
        createdAt,
        retiredAt: null,
      });
      expect(await store.receipts.listKeys()).toEqual([]);
      await store.receipts.rotateKey(key('k1', 10), 10);
      await store.receipts.rotateKey(key('k2', 20), 20);
      expect(await store.receipts.listKeys()).toEqual([key('k2', 20), { ...key('k1', 10), retiredAt: 20 }]);
    },
  ),
];
