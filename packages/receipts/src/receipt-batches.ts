// Receipts format 2 (ADR 0294): a salted leaf per answer, chained by `prev`, and one signature per flush over
// the Merkle root of its leaves; a receipt proves itself with its path from leaf to root.

import { createHash, hash } from 'node:crypto';
import type { ReceiptBatchRecord, ReceiptRecord } from '@screen-service/registry/model';

/** The protected header's `typ` of a batch root's JWS (a receipt of format 1 says `svc-receipt+jws`). */
export const ROOT_TYP = 'svc-receipt-root+jws';

/** One step of a path: the sibling's hash, on the side it sits (the fold hashes left, then right). */
export type PathStep = { left: string } | { right: string };

/** The byte that starts an inner node's preimage; a leaf's preimage is canonical JSON (starts with `{`). */
const NODE = Buffer.from([1]);
/** An inner node's preimage, reused: 0x01 and two 32-byte children (a flush hashes one per pair of leaves). */
const PAIR = Buffer.alloc(65, 1);

/** An inner node: SHA-256 of 0x01, the left child's 32 bytes and the right's, base64url. */
function node(left: string, right: string): string {
  // A child is a SHA-256 in base64url (43 characters): decoded into the reused preimage, hashed in one call.
  if (left.length === 43 && right.length === 43) {
    const l = PAIR.write(left, 1, 32, 'base64url');
    const r = PAIR.write(right, 33, 32, 'base64url');
    if (l === 32 && r === 32) return hash('sha256', PAIR, 'base64url');
  }
  // Anything else (a path read from a file may hold any text): the same preimage, built as it decodes.
  return createHash('sha256')
    .update(NODE)
    .update(Buffer.from(left, 'base64url'))
    .update(Buffer.from(right, 'base64url'))
    .digest('base64url');
}

/** The next level up: pairs hashed, an odd last node carried up as it is (never paired with itself). */
function up(level: readonly string[]): string[] {
  const next: string[] = [];
  for (let i = 0; i < level.length; i += 2) {
    next.push(i + 1 < level.length ? node(level[i]!, level[i + 1]!) : level[i]!);
  }
  return next;
}

/**
 * The Merkle root over `leaves` (a one-leaf tree's root is its leaf).
 *
 * @example
 * ```ts
 * const root = merkleRoot([leafA, leafB, leafC]);
 * ```
 */
export function merkleRoot(leaves: readonly string[]): string {
  if (leaves.length === 0) throw new Error('a batch of receipts has at least one leaf');
  let level = leaves;
  while (level.length > 1) level = up(level);
  return level[0]!;
}

/** The path from leaf `index` of `leaves` to their root: the sibling of each level that has one. */
export function merklePath(leaves: readonly string[], index: number): PathStep[] {
  const path: PathStep[] = [];
  let level = leaves;
  let i = index;
  while (level.length > 1) {
    const sibling = i ^ 1;
    if (sibling < level.length) path.push(i & 1 ? { left: level[sibling]! } : { right: level[sibling]! });
    level = up(level);
    i >>= 1;
  }
  return path;
}

/** Folds `path` from `leaf` to a root; null when the path is not a list of `{left}` / `{right}` hashes. */
export function foldPath(leaf: string, path: unknown): string | null {
  if (!Array.isArray(path)) return null;
  let hash = leaf;
  for (const step of path as Record<string, unknown>[]) {
    const left = step?.left;
    const right = step?.right;
    if (typeof left === 'string' && right === undefined) hash = node(left, hash);
    else if (typeof right === 'string' && left === undefined) hash = node(hash, right);
    else return null;
  }
  return hash;
}

/** A format-2 receipt as a line of an export (and as `svc_answers` gives it): what `verify` needs. */
export interface ReceiptProof {
  v: 2;
  /** The signed-over payload, salt included: its canonical JSON's SHA-256 is the leaf. */
  receipt: Record<string, unknown>;
  path: PathStep[];
  /** The batch root's compact JWS; null when the batch row is gone. */
  batch: string | null;
}

/** The proof of a format-2 record read with its batch joined; null for a format-1 record. */
export function proofOf(r: ReceiptRecord): ReceiptProof | null {
  if (!r.batch) return null;
  const signed: ReceiptBatchRecord | undefined = r.batch.signed;
  return {
    v: 2,
    receipt: JSON.parse(r.jws) as Record<string, unknown>,
    path: signed ? merklePath(signed.leaves, r.batch.index) : [],
    batch: signed?.jws ?? null,
  };
}

/**
 * A receipt as text, whatever its format: format 1's compact JWS, or format 2's proof as JSON (what
 * `svc_answers` returns with an answer).
 */
export function receiptText(r: ReceiptRecord): string {
  const proof = proofOf(r);
  return proof ? JSON.stringify(proof) : r.jws;
}

/**
 * The payload of a receipt given as {@link receiptText} writes it, or of a line of an export (either format);
 * null when it is none of these.
 */
export function receiptPayload(text: string): Record<string, unknown> | null {
  try {
    if (text.startsWith('{')) {
      const inner = (JSON.parse(text) as { receipt?: unknown }).receipt;
      if (typeof inner === 'string') return receiptPayload(inner);
      return inner && typeof inner === 'object' ? (inner as Record<string, unknown>) : null;
    }
    const part = text.split('.')[1];
    return part === undefined
      ? null
      : (JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>);
  } catch {
    return null;
  }
}
