// Receipts of format 2 on a real SQLite file with real keys (ADR 0294): a flush's answers, of several threads
// and accounts, are signed once; `verifyReceipts` checks them offline and names each kind of damage by line.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createReceipts, type Receipts, verifyReceipts } from '@screen-service/receipts';
import { newId } from '@screen-service/registry/kernel';
import type { NewMessage, ReceiptBuilder, ThreadKey } from '@screen-service/registry/model';
import { runMigrations } from '@screen-service/tables-engine/migrations';
import { createTestStore, seedAgent, seedUser, type TestStore } from '@screen-service/test-kit';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SERVICE_MIGRATIONS } from './service-database.js';

let t: TestStore;
afterEach(() => t?.close());

const secret = new TextEncoder().encode('a-service-secret-of-enough-bytes!');
let version = 1;
let clock = 1_700_000_000_000;

async function setup() {
  t = createTestStore({ prefix: 'svc-batches-' });
  const receipts = createReceipts({ store: t.store, secret, issuer: 'https://svc.test', now: () => clock });
  const threads: ThreadKey[] = [];
  for (const email of ['ana@example.com', 'bo@example.com']) {
    const user = await seedUser(t.store, { email });
    for (const handle of ['cook', 'desk']) {
      threads.push({ agentId: (await seedAgent(t.store, user.id, { handle })).id, userId: user.id });
    }
  }
  return { receipts, threads };
}

function tap(k: ThreadKey, body: string, over: Partial<NewMessage> = {}): NewMessage {
  clock += 1000;
  return {
    id: newId('msg_'),
    ...k,
    sender: 'person',
    kind: 'tap',
    body,
    meta: { event: { choice: body } },
    createdAt: clock,
    ...over,
  };
}

/** Answers `bodies` on each of `threads`, every one asked in the same turn: one flush of the group commit. */
async function flush(receipts: Receipts, threads: ThreadKey[], bodies: string[], asV1 = false) {
  const signer = await receipts.signer();
  const builder = signer.builder(null, { device: 'd-1' });
  // Format 1, as a release before format 2 wrote it: the builder without its leaf.
  const receiptOf: ReceiptBuilder = asV1 ? (m, last) => builder(m, last) : builder;
  return Promise.all(
    threads.flatMap((k) => bodies.map((b) => t.store.threads.appendSigned(tap(k, b), ++version, receiptOf))),
  );
}

const lines = (text: string) => text.trimEnd().split('\n');
const problems = (text: string, jwks: { keys: unknown[] }) =>
  verifyReceipts(text, jwks).problems.map((p) => `${p.line}: ${p.message}`);

describe('receipts of format 2: one signature per flush', () => {
  it('a chain over several flushes, threads and accounts verifies; one root JWS signs each flush', async () => {
    const { receipts, threads } = await setup();
    for (const round of ['Soup', 'Salad', 'Cake']) await flush(receipts, threads, [round, `${round}!`]);
    // One answer alone in its flush: a one-leaf tree.
    await flush(receipts, [threads[0]!], ['Tea']);
    const batches = t.db.prepare('SELECT id, leaves FROM receipt_batches ORDER BY created_at').all() as {
      leaves: string;
    }[];
    expect(batches.map((b) => (JSON.parse(b.leaves) as string[]).length)).toEqual([8, 8, 8, 1]);
    const jwks = await receipts.jwks();
    for (const [i, k] of threads.entries()) {
      const file = await receipts.exportThread(k);
      expect(verifyReceipts(file, jwks)).toEqual({
        receipts: i === 0 ? 7 : 6,
        verified: i === 0 ? 7 : 6,
        problems: [],
      });
      const first = JSON.parse(lines(file)[0]!) as Record<string, unknown>;
      expect(first).toMatchObject({
        seq: 1,
        v: 2,
        receipt: { v: 2, seq: 1, prev: null },
        answer: { body: 'Soup' },
      });
      // Eight leaves: three siblings from the leaf to the root.
      expect(first.path).toHaveLength(3);
    }
    // Without answers (a management token's export) the chain and signatures still check.
    expect(
      verifyReceipts(await receipts.exportThread(threads[1]!, { answers: false }), jwks).problems,
    ).toEqual([]);
  });

  it('names by line a changed answer, an altered path, payload or root JWS, a deleted receipt, an unknown key', async () => {
    const { receipts, threads } = await setup();
    const k = threads[0]!;
    for (const round of ['Soup', 'Salad', 'Cake']) await flush(receipts, threads, [round]);
    const jwks = await receipts.jwks();
    const good = lines(await receipts.exportThread(k));
    expect(good).toHaveLength(3);

    // A stored answer changed by one byte.
    const second = JSON.parse(good[1]!) as { answer: { id: string }; path: Record<string, string>[] };
    t.db.prepare("UPDATE messages SET body = 'Salud' WHERE id = ?").run(second.answer.id);
    expect(problems(await receipts.exportThread(k), jwks)).toEqual([
      `2: answer ${second.answer.id} differs from what was signed: it was changed after it was recorded`,
    ]);
    t.db.prepare("UPDATE messages SET body = 'Salad' WHERE id = ?").run(second.answer.id);

    // One byte of a path, in the file a person holds.
    const step = second.path[0]!;
    const side = 'left' in step ? 'left' : 'right';
    const flipped = { ...second, path: [{ [side]: flip(step[side]!) }, ...second.path.slice(1)] };
    expect(problems([good[0], JSON.stringify(flipped), good[2]].join('\n'), jwks)).toEqual([
      "2: the receipt and its path do not lead to its batch's signed root: the receipt or its path was altered",
    ]);

    // One byte of a payload: its leaf changes, so its path leads elsewhere and the next link breaks.
    const edited = JSON.parse(good[0]!) as { receipt: { how: string } };
    edited.receipt.how = 'tip';
    expect(problems([JSON.stringify(edited), good[1], good[2]].join('\n'), jwks)).toEqual([
      "1: the receipt and its path do not lead to its batch's signed root: the receipt or its path was altered",
      '2: the link to receipt 1 does not match: the chain was altered',
    ]);

    // One byte of a stored root JWS: every receipt of that flush says its batch was altered.
    const batchOfThird = (JSON.parse(good[2]!) as { batch: string }).batch;
    const row = t.db.prepare('SELECT id, jws FROM receipt_batches WHERE jws = ?').get(batchOfThird) as {
      id: string;
      jws: string;
    };
    t.db.prepare('UPDATE receipt_batches SET jws = ? WHERE id = ?').run(flipSignature(row.jws), row.id);
    const kid = String(jwks.keys[0]!.kid);
    expect(problems(await receipts.exportThread(k), jwks)).toEqual([
      `3: its batch root's signature does not verify with key "${kid}": the batch was altered`,
    ]);
    expect(problems(await receipts.exportThread(threads[3]!), jwks)).toEqual([
      `3: its batch root's signature does not verify with key "${kid}": the batch was altered`,
    ]);
    t.db.prepare('UPDATE receipt_batches SET jws = ? WHERE id = ?').run(row.jws, row.id);

    // A receipt deleted from the store.
    t.db
      .prepare('DELETE FROM answer_receipts WHERE agent_id = ? AND user_id = ? AND seq = 2')
      .run(k.agentId, k.userId);
    expect(problems(await receipts.exportThread(k), jwks)).toEqual([
      '2: receipt 2 is missing from the chain (deleted)',
    ]);

    // Keys not published: every line says which key signed its batch.
    expect(problems(await receipts.exportThread(threads[1]!), { keys: [] })).toEqual(
      [1, 2, 3].map(
        (n) => `${n}: its batch root is signed with key "${kid}", which is not among the published keys`,
      ),
    );
  });

  it('after a key rotation old and new batches verify against the published keys; a v1-then-v2 chain verifies', async () => {
    const { receipts, threads } = await setup();
    await flush(receipts, threads, ['Soup', 'Salad'], true);
    await flush(receipts, threads, ['Cake']);
    const oldKid = String((await receipts.jwks()).keys[0]!.kid);
    const newKid = await receipts.rotateKey();
    await flush(receipts, threads, ['Tea', 'Coffee']);
    const jwks = await receipts.jwks();
    const file = await receipts.exportThread(threads[2]!);
    const kinds = lines(file).map((l) => (JSON.parse(l) as { v?: number }).v ?? 1);
    expect(kinds).toEqual([1, 1, 2, 2, 2]);
    expect(verifyReceipts(file, jwks)).toEqual({ receipts: 5, verified: 5, problems: [] });
    // Only the new key published: the receipts the old one signed are named, by line and key.
    const onlyNew = { keys: jwks.keys.filter((key) => key.kid === newKid) };
    expect(problems(file, onlyNew)).toEqual([
      `1: signed with key "${oldKid}", which is not among the published keys`,
      `2: signed with key "${oldKid}", which is not among the published keys`,
      `3: its batch root is signed with key "${oldKid}", which is not among the published keys`,
    ]);
  });

  it("a person's export holds no other account's receipt, salt or ids, though their leaves share a tree", async () => {
    const { receipts, threads } = await setup();
    await flush(receipts, threads, ['Soup', 'Salad']);
    const theirs = threads.filter((k) => k.userId !== threads[0]!.userId);
    expect(theirs).toHaveLength(2);
    const mine = await receipts.exportThread(threads[0]!);
    const rows = t.db
      .prepare('SELECT id, jws, message_id FROM answer_receipts WHERE user_id = ?')
      .all(theirs[0]!.userId) as { id: string; jws: string; message_id: string }[];
    expect(rows).toHaveLength(4);
    for (const r of rows) {
      const payload = JSON.parse(r.jws) as { salt: string };
      for (const secretBit of [r.id, r.message_id, payload.salt, theirs[0]!.userId, r.jws]) {
        expect(mine).not.toContain(secretBit);
      }
    }
    // The person's own lines carry their salts: what lets them (and only them) recompute their leaves.
    expect(
      lines(mine).every(
        (l) => typeof (JSON.parse(l) as { receipt: { salt?: unknown } }).receipt.salt === 'string',
      ),
    ).toBe(true);
  });

  it('a write that fails alone in its flush leaves the others signed in one batch without its leaf', async () => {
    const { receipts, threads } = await setup();
    const k = threads[0]!;
    const signer = await receipts.signer();
    const builder = signer.builder(null, {});
    await t.store.threads.appendSigned(tap(k, 'first', { idemKey: 'same' }), ++version, builder);
    const outcomes = await Promise.allSettled([
      t.store.threads.appendSigned(tap(k, 'a'), ++version, builder),
      t.store.threads.appendSigned(tap(k, 'again', { idemKey: 'same' }), ++version, builder),
      t.store.threads.appendSigned(tap(threads[2]!, 'b'), ++version, builder),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const last = t.db
      .prepare('SELECT leaves, live FROM receipt_batches ORDER BY created_at DESC, rowid DESC LIMIT 1')
      .get() as {
      leaves: string;
      live: number;
    };
    expect(JSON.parse(last.leaves)).toHaveLength(2);
    // The count of receipts that need it is the leaves the second pass kept, not the writes it was given.
    expect(last.live).toBe(2);
    const jwks = await receipts.jwks();
    expect(verifyReceipts(await receipts.exportThread(k), jwks)).toMatchObject({ receipts: 2, verified: 2 });
    expect(verifyReceipts(await receipts.exportThread(threads[2]!), jwks)).toMatchObject({
      receipts: 1,
      verified: 1,
    });
  });
});

describe('a batch goes with the last receipt that needs it (ADR 0308)', () => {
  /** Each batch's leaves and how many receipts still name it, oldest first. */
  const held = () =>
    (
      t.db.prepare('SELECT leaves, live FROM receipt_batches ORDER BY id').all() as {
        leaves: string;
        live: number;
      }[]
    ).map((b) => [(JSON.parse(b.leaves) as string[]).length, b.live]);

  it('stays while another thread needs it, and goes with the last one, by thread, agent or account deletion', async () => {
    const { receipts, threads } = await setup();
    const [a, b, c] = threads as [ThreadKey, ThreadKey, ThreadKey];
    await flush(receipts, [a, b], ['Soup', 'Salad']);
    await flush(receipts, [a], ['Tea']);
    await flush(receipts, [c], ['Cake']);
    expect(held()).toEqual([
      [4, 4],
      [1, 1],
      [1, 1],
    ]);

    await t.store.threads.deleteThread(a);
    // a's own batch went; the shared one stays for b's two receipts, which still verify against it.
    expect(held()).toEqual([
      [4, 2],
      [1, 1],
    ]);
    const jwks = await receipts.jwks();
    expect(verifyReceipts(await receipts.exportThread(b), jwks)).toEqual({
      receipts: 2,
      verified: 2,
      problems: [],
    });

    // b's agent deleted: its receipts go by cascade, and the batch with the last of them.
    expect(await t.store.agents.delete(b.agentId)).toBe(true);
    expect(held()).toEqual([[1, 1]]);
    // c's account deleted, the same way.
    expect(await t.store.users.delete(c.userId)).toBe(true);
    expect(held()).toEqual([]);

    // a's thread (its agent and account are still there) answers again: a new batch, and it verifies.
    await flush(receipts, [a], ['Tea again']);
    expect(held()).toEqual([[1, 1]]);
    expect(verifyReceipts(await receipts.exportThread(a), jwks)).toMatchObject({ verified: 1, problems: [] });
  });

  it('an upgrade counts the batches it finds and removes those no receipt names any more', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-batch-upgrade-'));
    const db = new Database(path.join(dir, 'svc.sqlite'));
    try {
      // Only the receipt tables matter here: no accounts or agents behind the rows.
      db.pragma('foreign_keys = OFF');
      runMigrations(
        db,
        SERVICE_MIGRATIONS.filter((m) => m.version <= 27),
      );
      const batch = db.prepare(
        "INSERT INTO receipt_batches (id, kid, root, jws, leaves, created_at) VALUES (?, 'k', 'r', 'j', '[]', 0)",
      );
      const receipt = db.prepare(
        `INSERT INTO answer_receipts (id, user_id, agent_id, seq, message_id, kid, jws, hash, created_at, batch_id, batch_index)
         VALUES (?, 'usr_1', 'agt_1', ?, ?, 'k', 'j', 'h', 0, ?, ?)`,
      );
      for (const id of [1, 2, 3]) batch.run(id);
      receipt.run('rcp_1', 1, 'msg_1', 1, 0);
      receipt.run('rcp_2', 2, 'msg_2', 1, 1);
      receipt.run('rcp_3', 3, 'msg_3', 3, 0);
      receipt.run('rcp_4', 4, 'msg_4', null, null);

      runMigrations(db, SERVICE_MIGRATIONS);
      const rows = () => db.prepare('SELECT id, live FROM receipt_batches ORDER BY id').all();
      // Batch 2 was named by no receipt (its thread was deleted before the upgrade).
      expect(rows()).toEqual([
        { id: 1, live: 2 },
        { id: 3, live: 1 },
      ]);
      db.prepare("DELETE FROM answer_receipts WHERE id IN ('rcp_3', 'rcp_4')").run();
      expect(rows()).toEqual([{ id: 1, live: 2 }]);
    } finally {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The same base64url text with one character changed. */
function flip(text: string): string {
  const i = Math.floor(text.length / 2);
  return text.slice(0, i) + (text[i] === 'A' ? 'B' : 'A') + text.slice(i + 1);
}

/** A compact JWS with one character of its signature changed. */
function flipSignature(jws: string): string {
  const [h, p, s] = jws.split('.');
  return `${h}.${p}.${flip(s!)}`;
}
