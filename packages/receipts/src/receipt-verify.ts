// Checks an exported chain of receipts offline (ADR 0261): each signature against the published keys, the
// chain's order and links, and each answer as stored against the digest that was signed.

import { canonicalJson, decodeCompact, sha256, verifyWithJwk } from './receipt-crypto.js';

/** One thing wrong, on one line of the file (1-based). */
export interface ReceiptProblem {
  line: number;
  seq: number | null;
  message: string;
}

/** What {@link verifyReceipts} found. */
export interface ReceiptReport {
  /** Receipts read (lines that were receipts). */
  receipts: number;
  /** Receipts whose signature, link and answer all check. */
  verified: number;
  problems: ReceiptProblem[];
}

/**
 * Verifies JSON Lines as `exportThread` writes them (`{seq, receipt, answer}` per line) against a JWKS.
 * Reports, by line: a key not among `jwks` (unknown or unpublished), a signature that does not verify (the
 * receipt was altered), a receipt missing from the chain (a gap in seq, or a `prev` that names another
 * hash), an answer no longer stored, and an answer that differs from what was signed.
 *
 * @example
 * ```ts
 * const report = verifyReceipts(fs.readFileSync('thread.jsonl', 'utf8'), JSON.parse(jwksText));
 * if (report.problems.length > 0) process.exitCode = 1;
 * ```
 */
export function verifyReceipts(text: string, jwks: { keys?: unknown }): ReceiptReport {
  const keys = new Map<string, Record<string, unknown>>();
  for (const k of Array.isArray(jwks.keys) ? (jwks.keys as Record<string, unknown>[]) : []) {
    if (k && typeof k.kid === 'string') keys.set(k.kid, k);
  }
  const problems: ReceiptProblem[] = [];
  let receipts = 0;
  let verified = 0;
  let previous: { seq: number; hash: string } | null = null;
  const lines = text.split('\n');
  lines.forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === '') return;
    receipts += 1;
    const say = (seq: number | null, message: string) => problems.push({ line, seq, message });
    let row: { receipt?: unknown; answer?: unknown };
    try {
      row = JSON.parse(raw) as typeof row;
    } catch {
      say(null, 'not a JSON line of an export');
      return;
    }
    const jws = typeof row.receipt === 'string' ? row.receipt : '';
    const decoded = decodeCompact(jws);
    if (!decoded) {
      say(null, 'no receipt on this line (expected {"receipt": "<JWS>", ...})');
      return;
    }
    const p = decoded.payload as {
      seq?: unknown;
      prev?: unknown;
      answer?: { id?: unknown; sha256?: unknown };
    };
    const seq = typeof p.seq === 'number' ? p.seq : null;
    const before = problems.length;
    const kid = String(decoded.header.kid ?? '');
    const jwk = keys.get(kid);
    if (!jwk) say(seq, `signed with key "${kid}", which is not among the published keys`);
    else if (decoded.header.alg !== 'EdDSA' || !verifyWithJwk(jwk, decoded.input, decoded.signature)) {
      say(seq, `the signature does not verify with key "${kid}": this receipt was altered`);
    }
    const expected = previous ? previous.seq + 1 : 1;
    if (seq !== null && seq > expected) {
      const gap = seq - expected === 1 ? `receipt ${expected} is` : `receipts ${expected} to ${seq - 1} are`;
      say(seq, `${gap} missing from the chain (deleted)`);
    } else if (seq !== null && seq < expected) {
      say(seq, `receipt ${seq} is out of order or repeated (expected ${expected})`);
    } else if ((p.prev ?? null) !== (previous?.hash ?? null)) {
      say(seq, `the link to receipt ${previous?.seq ?? 'none'} does not match: the chain was altered`);
    }
    const answerId = String(p.answer?.id ?? '');
    // An export without answers (a management token's) checks signatures and the chain only.
    if (!('answer' in row)) {
      // nothing to compare
    } else if (row.answer === null || row.answer === undefined) {
      say(seq, `answer ${answerId} is no longer stored in the thread`);
    } else if (sha256(canonicalJson(row.answer)) !== p.answer?.sha256) {
      say(seq, `answer ${answerId} differs from what was signed: it was changed after it was recorded`);
    }
    if (problems.length === before) verified += 1;
    if (seq !== null) previous = { seq, hash: sha256(jws) };
  });
  return { receipts, verified, problems };
}
