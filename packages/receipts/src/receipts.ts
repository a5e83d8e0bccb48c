// Receipts of answers (issue 40, ADR 0261, 0294): each answer row gets a receipt signed by the service, chained
// per thread, written in the answer's own write (format 2: a flush's receipts signed once); the keys are
// published as a JWKS and rotate; a thread's receipts export as JSON Lines, for `svc receipts verify`.

import type { KeyObject } from 'node:crypto';
import {
  newTimedId,
  type Random,
  ServiceError,
  systemClock,
  systemRandom,
} from '@screen-service/registry/kernel';
import type {
  MessageRecord,
  ReceiptBuilder,
  ReceiptRecord,
  Repositories,
  ScreenRecord,
  Store,
  ThreadKey,
} from '@screen-service/registry/model';
import { proofOf } from './receipt-batches.js';
import { canonicalJson, jwsHeader, newSigningKey, sha256, unsealKey } from './receipt-crypto.js';
import {
  type AnswerRow,
  answerOf,
  type PresignedReceipt,
  type ReceiptWho,
  receiptFormats,
} from './receipt-formats.js';
import { createOffThreadSigner, type OffThreadSigner } from './receipt-worker.js';

export {
  type AnswerRow,
  answerOf,
  decidedBy,
  howOf,
  type PresignedReceipt,
  type ReceiptWho,
} from './receipt-formats.js';

/** Options of {@link createReceipts}. */
export interface ReceiptsOptions {
  store: Store;
  /** The service secret: seals the signing keys' private halves. */
  secret: Uint8Array;
  /** Names the service in every receipt (`iss`). */
  issuer: string;
  now?: () => number;
  random?: Random;
  /** How long a process keeps the key list before reading it again (another instance may rotate); 60 s. */
  keyTtlMs?: number;
  /**
   * Sign the tap path's receipts in a worker thread (`presign`), a turn's answers together; default false:
   * `presign` answers null and every receipt is signed in its write. On two busy cores the messages to and
   * from the worker cost the main thread more than the signatures they took away (ADR 0288, amended): turn
   * it on only where a core is free for the worker.
   */
  offThread?: boolean;
}

/** A signer ready to sign synchronously inside a write (its key read and unsealed before). */
export interface ReceiptSigner {
  /**
   * Writes the receipt of answer `m` on `screen` in `tx` (the answer's transaction): the next link of the
   * thread's chain. Returns the record written.
   */
  write(
    tx: Repositories,
    m: MessageRecord,
    screen: ScreenRecord | null,
    who: ReceiptWho,
  ): Promise<ReceiptRecord>;
  /** The digest of the screen as drawn (read once per screen, then kept). */
  digest(
    repos: Pick<Repositories, 'threads' | 'agents'>,
    screen: ScreenRecord | null,
  ): Promise<string | null>;
  /**
   * Signs the receipt of `row` (not yet written) in the worker thread, as the next link after the newest this
   * process knows of its thread; null when this signer signs in its writes only (`offThread: false`, or the
   * worker failed). Give the result to {@link ReceiptSigner.builder}: the write keeps it only if the thread's
   * newest receipt is still the one it links to, and otherwise signs again there.
   */
  presign(
    store: Pick<Store, 'receipts'>,
    row: AnswerRow,
    screen: { id: string; digest: string | null } | null,
    who: ReceiptWho,
  ): Promise<PresignedReceipt | null>;
  /**
   * What `threads.appendSigned` takes: builds the receipt of a row from the thread's newest, format 1 signed
   * at once, or (no `presigned` given) format 2, its leaf signed with its flush's (ADR 0294).
   */
  builder(
    screen: { id: string; digest: string | null } | null,
    who: ReceiptWho,
    presigned?: PresignedReceipt | null,
  ): ReceiptBuilder;
}

/** The receipts of a service: the signer, the published keys, rotation and export. */
export interface Receipts {
  /** The signer with the current key (made on first use when the service has none). */
  signer(): Promise<ReceiptSigner>;
  /** The public keys, newest first, as a JWKS (`{keys: [...]}`), retired keys included. */
  jwks(): Promise<{ keys: Record<string, unknown>[] }>;
  /** Makes a new signing key; the old one retires (it stays published). Returns the new kid. */
  rotateKey(): Promise<string>;
  /**
   * Forgets the key this process holds: the next receipt reads the keys again. A rotation by another process
   * (`svc receipts rotate-key`, another instance) is otherwise picked up within `keyTtlMs`.
   */
  refresh(): void;
  /**
   * The thread's receipts as JSON Lines: `{seq, receipt, answer}` per line, the answer as stored now or null;
   * a format-2 line also carries `v: 2`, its `path` and its `batch` (the root's JWS), and its `receipt` is
   * the payload itself (ADR 0294).
   * With `answers: false` (a management token, which never reads messages) the lines carry no `answer`.
   */
  exportThread(key: ThreadKey, options?: { answers?: boolean }): Promise<string>;
  /**
   * The owner's own thread of `agentId` (the management API's export): `AGENT_NOT_FOUND` unless the agent
   * is theirs.
   */
  exportOwned(userId: string, agentId: unknown, options?: { answers?: boolean }): Promise<string>;
}

/**
 * Builds the receipts of a service over its store.
 *
 * @example
 * ```ts
 * const receipts = createReceipts({ store, secret, issuer: 'https://svc.example' });
 * const signer = await receipts.signer();
 * await store.transaction(async (tx) => signer.write(tx, await tx.threads.append(row, v), screen, {}));
 * ```
 */
export function createReceipts(o: ReceiptsOptions): Receipts {
  const { store } = o;
  const now = o.now ?? systemClock;
  const random = o.random ?? systemRandom;
  const ttl = o.keyTtlMs ?? 60_000;
  const off: OffThreadSigner | null = o.offThread === true ? createOffThreadSigner() : null;
  let cached: { kid: string; key: KeyObject; at: number } | undefined;
  /** The signer made for the key kept in `cached`: a new one only when that changes. */
  let signerOf: { key: object; signer: ReceiptSigner } | undefined;
  // A screen's digest is taken at its first answer and kept: a screen never changes once shown, and the
  // reads it takes (its message, the agent's look) would otherwise cost every tap (issue 40's benchmark).
  const digests = new Map<string, string>();
  const keep = (id: string, digest: string) => {
    // Bounded: the oldest screen's digest goes first (a Map iterates in insertion order).
    if (digests.size >= 2_000) digests.delete(digests.keys().next().value!);
    digests.set(id, digest);
  };

  async function currentKey(): Promise<{ kid: string; key: KeyObject }> {
    if (cached && now() - cached.at < ttl) return cached;
    let live = (await store.receipts.listKeys()).find((k) => k.retiredAt === null);
    if (!live) {
      await rotateKey();
      live = (await store.receipts.listKeys()).find((k) => k.retiredAt === null)!;
    }
    cached = { kid: live.kid, key: unsealKey(o.secret, live.kid, live.sealedPrivate), at: now() };
    return cached;
  }

  async function rotateKey(): Promise<string> {
    const made = newSigningKey(o.secret);
    const at = now();
    await store.receipts.rotateKey({ ...made, createdAt: at, retiredAt: null }, at);
    cached = undefined;
    return made.kid;
  }

  async function screenDigest(
    tx: Pick<Repositories, 'threads' | 'agents'>,
    screen: ScreenRecord | null,
  ): Promise<string | null> {
    if (!screen) return null;
    const known = digests.get(screen.id);
    if (known) return known;
    const message = await tx.threads.getMessage(screen.messageId);
    const agent = await tx.agents.get(screen.agentId);
    // What the person saw: the lines, the chat line above them, the agent's look and the parsed components
    // (the answers on offer).
    const digest = sha256(
      canonicalJson({
        id: screen.id,
        lines: screen.lines,
        text: message?.meta.text ?? null,
        look: agent?.theme ?? {},
        ops: screen.ops,
      }),
    );
    keep(screen.id, digest);
    return digest;
  }

  return {
    async signer() {
      const current = await currentKey();
      // One signer per key as kept (every answer asks for one): its builders are made once, not per answer.
      if (signerOf?.key === current) return signerOf.signer;
      const { kid, key } = current;
      const { unsigned, signed, leaf, signBatch } = receiptFormats({
        issuer: o.issuer,
        kid,
        key,
        now,
        random,
        off,
      });
      const builder: ReceiptSigner['builder'] = (screen, who, presigned) => {
        const build: ReceiptBuilder = (m, last) => signed(screen, who, presigned, m, last);
        // A receipt signed ahead in the worker (ADR 0288) is format 1: a store uses it as it is.
        if (presigned) return build;
        build.leaf = (m, last) => leaf(screen, who, m, last);
        build.signBatch = signBatch;
        return build;
      };
      const signer: ReceiptSigner = {
        builder,
        digest: screenDigest,
        async presign(repos, row, screen, who) {
          if (!off) return null;
          const threadKey = `${row.agentId}|${row.userId}`;
          if (off.tip(threadKey) === undefined) {
            const last = await repos.receipts.last({ agentId: row.agentId, userId: row.userId });
            // Another answer of the thread may have set it meanwhile: that one is newer.
            if (off.tip(threadKey) === undefined)
              off.setTip(threadKey, last ? { seq: last.seq, hash: last.hash } : null);
          }
          const id = newTimedId('rcp_', now(), random);
          try {
            const signed = await off.sign(threadKey, kid, key, jwsHeader(kid), {
              payload: unsigned(row, screen, who, id),
              answer: answerOf(row),
            });
            return { ...signed, id };
          } catch {
            // The worker failed: this answer is signed in its write, as without one.
            return null;
          }
        },
        async write(tx, m, screen, who) {
          const digest = await screenDigest(tx, screen);
          const last = await tx.receipts.last({ agentId: m.agentId, userId: m.userId });
          const drawn = screen ? { id: screen.id, digest } : null;
          if (!tx.receipts.keepsBatches) {
            const record = signed(drawn, who, null, m, last);
            await tx.receipts.append(record);
            return record;
          }
          // A transaction's answer is a batch of its own: a one-leaf tree, its root the leaf.
          const record = leaf(drawn, who, m, last);
          record.batch = { index: 0, signed: signBatch([record.hash]) };
          await tx.receipts.append(record);
          return record;
        },
      };
      signerOf = { key: current, signer };
      return signer;
    },
    async jwks() {
      return { keys: (await store.receipts.listKeys()).map((k) => k.publicJwk) };
    },
    rotateKey,
    refresh() {
      cached = undefined;
    },
    async exportOwned(userId, agentId, options) {
      const agent = typeof agentId === 'string' ? await store.agents.get(agentId) : null;
      if (!agent || agent.userId !== userId) {
        throw new ServiceError('AGENT_NOT_FOUND', `No agent ${String(agentId)} in this account.`, {
          field: 'agent_id',
        });
      }
      return this.exportThread({ agentId: agent.id, userId }, options);
    },
    async exportThread(key, options = {}) {
      const withAnswers = options.answers !== false;
      const lines: string[] = [];
      for (let after = 0; ; ) {
        const page = await store.receipts.listByThread(key, after, 500);
        for (const r of page) {
          // Format 2 carries its proof: the payload, its path and the batch root's JWS (ADR 0294).
          const proof = proofOf(r);
          const line: Record<string, unknown> = proof
            ? { seq: r.seq, ...proof }
            : { seq: r.seq, receipt: r.jws };
          if (withAnswers) {
            const m = await store.threads.getMessage(r.messageId);
            line.answer = m && m.agentId === key.agentId && m.userId === key.userId ? answerOf(m) : null;
          }
          lines.push(JSON.stringify(line));
        }
        if (page.length < 500) break;
        after = page.at(-1)!.seq;
      }
      return lines.length > 0 ? `${lines.join('\n')}\n` : '';
    },
  };
}
