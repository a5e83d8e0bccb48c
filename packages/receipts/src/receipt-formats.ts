// How a receipt is built (ADR 0261, 0294): the payload both formats share, format 1 signed on its own, and
// format 2's salted leaf and its batch root signed once.

import type { KeyObject } from 'node:crypto';
import { isoTime, newTimedId, type Random, systemRandom } from '@screen-service/registry/kernel';
import type {
  MessageRecord,
  ReceiptBatchRecord,
  ReceiptLink,
  ReceiptRecord,
} from '@screen-service/registry/model';
import { merkleRoot, ROOT_TYP } from './receipt-batches.js';
import { canonicalJson, inKeyOrder, sha256, signCompact } from './receipt-crypto.js';
import type { OffThreadSigner, Presigned } from './receipt-worker.js';

/** Who answered, as far as the service knows: the person, and the sign-in and device it came through. */
export interface ReceiptWho {
  /** Who decided, when not the thread's person: a holder answering an ask offered to them (ADR 0280). */
  user?: string | null;
  session?: string | null;
  device?: string | null;
}

/** An answer row as its receipt covers it (a row about to be written, or written). */
export type AnswerRow = Pick<MessageRecord, 'id' | 'agentId' | 'userId' | 'body' | 'createdAt'> & {
  screenId?: string | null;
  meta?: Record<string, unknown>;
};

/** The answer as a receipt's digest covers it (and as an export line carries it). */
export function answerOf(m: AnswerRow): Record<string, unknown> {
  // Keys in sorted order, as in every object built here: canonicalJson then writes it at JSON.stringify's speed.
  return {
    at: isoTime(m.createdAt),
    body: m.body,
    // The one member not built here: the tap's event, in the view's key order.
    event: inKeyOrder(m.meta?.event ?? null),
    id: m.id,
    screen_id: m.screenId ?? null,
    via: m.meta?.via ?? null,
  };
}

/** How an answer was given, for the receipt: what its row's `via` says (a phone tap when it says nothing). */
export function howOf(m: AnswerRow): string {
  const via = m.meta?.via;
  if (via === undefined || via === null || via === 'app') return 'tap';
  return via === 'mcp-app' ? 'in-chat' : String(via);
}

/**
 * Who decided, for the receipt: `default` (the deadline), `agent` (it withdrew the screen, ADR 0279),
 * `escalation`, or else the person.
 */
export function decidedBy(m: AnswerRow): string {
  const d = m.meta?.decided_by;
  return d === 'default' || d === 'agent' || d === 'escalation' ? d : 'person';
}

/** A receipt signed ahead of its answer's write (`presign`): its id, link and JWS. */
export type PresignedReceipt = Presigned & { id: string };

/** Whether two chain links are the same (both absent: the thread has no receipt yet). */
function sameLink(a: ReceiptLink | null, b: ReceiptLink | null): boolean {
  return a === null || b === null ? a === b : a.seq === b.seq && a.hash === b.hash;
}

/** What {@link receiptFormats} builds with: the signing key and where ids and times come from. */
export interface FormatOptions {
  issuer: string;
  kid: string;
  key: KeyObject;
  now: () => number;
  random: Random;
  /** The worker's chain tips, kept current by every receipt built here (ADR 0288); null without one. */
  off: OffThreadSigner | null;
}

/** The receipt builders of one signing key: format 1 (`signed`), format 2 (`leaf`, `signBatch`). */
export function receiptFormats(o: FormatOptions) {
  const { kid, key, now, random, off } = o;
  // Everything but the chain link (seq, prev) and the answer's digest, which are filled in where it is signed.
  const unsigned = (
    m: AnswerRow,
    screen: { id: string; digest: string | null } | null,
    who: ReceiptWho,
    id: string,
  ) => ({
    answer: { id: m.id } as Record<string, unknown>,
    at: isoTime(m.createdAt),
    decided_by: decidedBy(m),
    how: howOf(m),
    iss: o.issuer,
    jti: id,
    screen: { id: screen?.id ?? null, sha256: screen?.digest ?? null },
    ...(typeof m.meta?.step === 'string' ? { step: m.meta.step } : {}),
    thread: { agent: m.agentId, user: m.userId },
    v: 1,
    who: { device: who.device ?? null, session: who.session ?? null, user: who.user ?? m.userId },
  });
  // Format 1 (ADR 0261): signed on its own; what stores without batches write, and a presigned receipt.
  const signed = (
    screen: { id: string; digest: string | null } | null,
    who: ReceiptWho,
    presigned: PresignedReceipt | null | undefined,
    m: MessageRecord,
    last: ReceiptLink | null,
  ): ReceiptRecord => {
    const thread = { agentId: m.agentId, userId: m.userId };
    const threadKey = `${m.agentId}|${m.userId}`;
    if (presigned && sameLink(presigned.after, last)) {
      const { seq, jws, hash } = presigned;
      return { id: presigned.id, ...thread, seq, messageId: m.id, kid, jws, hash, createdAt: now() };
    }
    const seq = (last?.seq ?? 0) + 1;
    const id = newTimedId('rcp_', now(), random);
    const payload = unsigned(m, screen, who, id);
    payload.answer.sha256 = sha256(canonicalJson(answerOf(m)));
    const jws = signCompact(key, kid, { ...payload, seq, prev: last?.hash ?? null });
    const hash = sha256(jws);
    // Receipts signed ahead for this thread now link to a stale newest: they are signed again in their write.
    off?.setTip(threadKey, { seq, hash });
    return { id, ...thread, seq, messageId: m.id, kid, jws, hash, createdAt: now() };
  };
  // Format 2 (ADR 0294): the salted payload and its leaf, unsigned; the batch's root is signed once.
  const leaf = (
    screen: { id: string; digest: string | null } | null,
    who: ReceiptWho,
    m: MessageRecord,
    last: ReceiptLink | null,
  ): ReceiptRecord => {
    const seq = (last?.seq ?? 0) + 1;
    const id = newTimedId('rcp_', now(), random);
    const { step, ...u } = unsigned(m, screen, who, id);
    u.answer.sha256 = sha256(canonicalJson(answerOf(m)));
    // Keys in sorted order (canonicalJson's fast path), the chain link and the salt in their places.
    const payload = {
      answer: u.answer,
      at: u.at,
      decided_by: u.decided_by,
      how: u.how,
      iss: u.iss,
      jti: u.jti,
      prev: last?.hash ?? null,
      // Fresh from the system's pool whatever `random` is: a guessable salt would not hide a sibling leaf.
      salt: Buffer.from(systemRandom.bytes(16)).toString('base64url'),
      screen: u.screen,
      seq,
      ...(step === undefined ? {} : { step }),
      thread: u.thread,
      v: 2,
      who: u.who,
    };
    const jws = canonicalJson(payload);
    const hash = sha256(jws);
    off?.setTip(`${m.agentId}|${m.userId}`, { seq, hash });
    const thread = { agentId: m.agentId, userId: m.userId };
    return { id, ...thread, seq, messageId: m.id, kid, jws, hash, createdAt: now() };
  };
  const signBatch = (leaves: string[]): ReceiptBatchRecord => {
    const root = merkleRoot(leaves);
    const at = now();
    const iat = Math.floor(at / 1000);
    const jws = signCompact(key, kid, { iat, iss: o.issuer, root, v: 2 }, ROOT_TYP);
    return { kid, root, jws, leaves, createdAt: at };
  };
  return { unsigned, signed, leaf, signBatch };
}
