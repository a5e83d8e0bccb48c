// Signed receipts of answers (issue 40, ADR 0261): one chained row per answer of a thread, and the service's
// receipt signing keys (private halves sealed by the rules). Storage only: the rules sign and chain.

import type { MessageRecord } from './records.js';
import type { Row } from './rows.js';
import type { ThreadKey } from './thread-repositories.js';

/**
 * One answer's receipt and where it sits in its thread's chain. Format 1 (ADR 0261): `jws` is a compact JWS of
 * its own. Format 2 (ADR 0294): `jws` holds the payload as canonical JSON, salt included (the leaf's preimage),
 * signed only through its batch's root; `batch` names the batch and the leaf's place in it.
 */
export interface ReceiptRecord {
  id: string;
  userId: string;
  agentId: string;
  /** 1, 2, 3... in the thread; each receipt names the previous one's hash inside its JWS. */
  seq: number;
  /** The answer row it is about (kept after the row is gone: the receipt then shows it went). */
  messageId: string;
  kid: string;
  /** Format 1: the compact JWS. Format 2: the signed-over payload as canonical JSON (salt included). */
  jws: string;
  /** SHA-256 of `jws` (base64url): format 1's hash, format 2's leaf; what the next receipt names as `prev`. */
  hash: string;
  createdAt: number;
  /**
   * Format 2 only (absent on format 1): the flush's batch (numbered by the store) and this leaf's index among
   * its leaves. Reads join the batch's signed root (`signed`); a write that carries `signed` writes the batch
   * with the receipt, numbered then (no `id` needed).
   */
  batch?: { id?: number; index: number; signed?: ReceiptBatchRecord };
}

/**
 * A batch of format-2 receipts (ADR 0294): the leaves written in one flush, in order, and the Merkle root over
 * them, signed once (a compact JWS with payload `{v: 2, iss, root, iat}`).
 */
export interface ReceiptBatchRecord {
  kid: string;
  root: string;
  jws: string;
  /** The leaves in tree order: a receipt's path is read from them at export. */
  leaves: string[];
  createdAt: number;
}

/**
 * What `threads.appendSigned` takes (ADR 0261, 0294). Called, it builds and signs a format-1 receipt (what
 * stores without batches write). With `leaf` and `signBatch`, a store that keeps batches writes format 2: each
 * write builds its unsigned leaf, and the flush's leaves are signed together by one call of `signBatch` as the
 * flush's last statement (or at once, a one-leaf batch, when the write runs alone).
 */
export interface ReceiptBuilder {
  (row: MessageRecord, last: ReceiptLink | null): ReceiptRecord;
  /** The unsigned format-2 receipt of `row` after `last` (its `batch` is left for the store to set). */
  leaf?: (row: MessageRecord, last: ReceiptLink | null) => ReceiptRecord;
  /** Builds the Merkle root over `leaves` and signs it: the batch. */
  signBatch?: (leaves: string[]) => ReceiptBatchRecord;
}

/** What the next receipt of a thread links to: its newest receipt's seq and hash. */
export type ReceiptLink = Pick<ReceiptRecord, 'seq' | 'hash'>;

/** A receipt signing key: the public JWK is published; the private half is sealed by the rules. */
export interface ReceiptKeyRecord {
  kid: string;
  publicJwk: Record<string, unknown>;
  sealedPrivate: string;
  createdAt: number;
  /** Set when a newer key took over signing; the key stays published so old receipts verify. */
  retiredAt: number | null;
}

/** Receipts and the keys that sign them. Receipts go only with their thread (or the account). */
export interface ReceiptRepository {
  /**
   * The store keeps format-2 receipts' batches (ADR 0294): `append` writes a receipt's `batch.signed` with
   * it, reads join it, and `threads.appendSigned` signs a flush's receipts together. Absent: format 1 only.
   */
  readonly keepsBatches?: boolean;
  /**
   * Writes a receipt; call it in the answer's own transaction. A second receipt with the same seq fails. A
   * format-2 receipt carries its batch (`batch.signed`), written with it, only where `keepsBatches`.
   */
  append(receipt: ReceiptRecord): Promise<void>;
  /** The thread's newest receipt, or null. */
  last(key: ThreadKey): Promise<ReceiptRecord | null>;
  /** The thread's receipts with seq above `afterSeq`, in chain order. */
  listByThread(key: ThreadKey, afterSeq: number, limit: number): Promise<ReceiptRecord[]>;
  /** The receipts of these answer rows. */
  listByMessages(messageIds: string[]): Promise<ReceiptRecord[]>;
  /** Adds a signing key and retires the ones in use, in one write. */
  rotateKey(next: ReceiptKeyRecord, at: number): Promise<void>;
  /** Every key, newest first (retired ones included: they verify older receipts). */
  listKeys(): Promise<ReceiptKeyRecord[]>;
}

/** An `answer_receipts` row of either SQL store. */
export function toReceipt(r: Row): ReceiptRecord {
  return {
    id: r.id as string,
    userId: r.user_id as string,
    agentId: r.agent_id as string,
    seq: Number(r.seq),
    messageId: r.message_id as string,
    kid: r.kid as string,
    jws: r.jws as string,
    hash: r.hash as string,
    createdAt: Number(r.created_at),
    ...(r.batch_id !== null && r.batch_id !== undefined ? { batch: batchOf(r) } : {}),
  };
}

/** A format-2 row's batch: its id and index, and the batch row when the read joined it (`batch_*`). */
function batchOf(r: Row): NonNullable<ReceiptRecord['batch']> {
  const at = { id: Number(r.batch_id), index: Number(r.batch_index) };
  if (typeof r.batch_jws !== 'string') return at;
  const signed: ReceiptBatchRecord = {
    kid: r.batch_kid as string,
    root: r.batch_root as string,
    jws: r.batch_jws,
    leaves: JSON.parse(r.batch_leaves as string) as string[],
    createdAt: Number(r.batch_created_at),
  };
  return { ...at, signed };
}

/** A `receipt_keys` row of either SQL store. */
export function toReceiptKey(r: Row): ReceiptKeyRecord {
  return {
    kid: r.kid as string,
    publicJwk: JSON.parse(r.public_jwk as string) as Record<string, unknown>,
    sealedPrivate: r.sealed_private as string,
    createdAt: Number(r.created_at),
    retiredAt: r.retired_at === null || r.retired_at === undefined ? null : Number(r.retired_at),
  };
}
