// Signed receipts of answers (issue 40, ADR 0261): one chained row per answer of a thread, and the service's
// receipt signing keys (private halves sealed by the rules). Storage only: the rules sign and chain.

import type { Row } from './rows.js';
import type { ThreadKey } from './thread-repositories.js';

/** One answer's receipt: the compact JWS and where it sits in its thread's chain. */
export interface ReceiptRecord {
  id: string;
  userId: string;
  agentId: string;
  /** 1, 2, 3... in the thread; each receipt names the previous one's hash inside its JWS. */
  seq: number;
  /** The answer row it is about (kept after the row is gone: the receipt then shows it went). */
  messageId: string;
  kid: string;
  jws: string;
  /** SHA-256 of `jws` (base64url): what the next receipt names as `prev`. */
  hash: string;
  createdAt: number;
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
  /** Writes a receipt; call it in the answer's own transaction. A second receipt with the same seq fails. */
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
  };
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
