// Checks an exported chain of receipts offline (ADR 0261, 0294): each signature (format 1) or leaf, path and
// batch root signature (format 2) against the published keys, the chain's order and links, and each answer as
// stored against the digest that was signed.

import { foldPath, ROOT_TYP } from './receipt-batches.js';
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
 * Verifies JSON Lines as `exportThread` writes them (`{seq, receipt, answer}` per line, format 2 with `v`,
 * `path` and `batch`; a chain may switch format at any receipt) against a JWKS. Reports, by line: a path or
 * payload that does not lead to its batch's signed root, a key not among `jwks` (unknown or unpublished), a signature that does not verify (the
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
  const signatures = signatureCheck(keys);
  let receipts = 0;
  let verified = 0;
  let previous: { seq: number; hash: string } | null = null;
  const lines = text.split('\n');
  lines.forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === '') return;
    receipts += 1;
    const say = (seq: number | null, message: string) => problems.push({ line, seq, message });
    let row: ExportLine;
    try {
      row = JSON.parse(raw) as ExportLine;
    } catch {
      say(null, 'not a JSON line of an export');
      return;
    }
    const before = problems.length;
    const read = row.v === 2 ? readFormat2(row, signatures) : readFormat1(row, signatures);
    if ('unreadable' in read) {
      say(null, read.unreadable);
      return;
    }
    const p = read.payload as { seq?: unknown; prev?: unknown; answer?: { id?: unknown; sha256?: unknown } };
    const seq = typeof p.seq === 'number' ? p.seq : null;
    for (const message of read.problems) say(seq, message);
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
    if (seq !== null) previous = { seq, hash: read.hash };
  });
  return { receipts, verified, problems };
}

/** A line of an export: format 1 `{seq, receipt: JWS, answer}`, format 2 `{seq, v: 2, receipt, path, batch, answer}`. */
interface ExportLine {
  v?: unknown;
  receipt?: unknown;
  path?: unknown;
  batch?: unknown;
  answer?: unknown;
}

/** A line's receipt read: its payload, the hash the next receipt links to, and what is wrong with it. */
type Read = { payload: Record<string, unknown>; hash: string; problems: string[] } | { unreadable: string };

/** What is wrong with a JWS's signature: its key is not published, or it does not verify; null: it verifies. */
type SignatureCheck = (jws: string) => { unknown: boolean; kid: string } | null;

function signatureCheck(keys: Map<string, Record<string, unknown>>): SignatureCheck {
  // A batch root signs many lines: each distinct JWS is checked once.
  const seen = new Map<string, { unknown: boolean; kid: string } | null>();
  return (jws) => {
    const known = seen.get(jws);
    if (known !== undefined) return known;
    const decoded = decodeCompact(jws);
    const kid = String(decoded?.header.kid ?? '');
    const jwk = keys.get(kid);
    let problem: { unknown: boolean; kid: string } | null = null;
    if (!jwk) problem = { unknown: true, kid };
    else if (decoded?.header.alg !== 'EdDSA' || !verifyWithJwk(jwk, decoded.input, decoded.signature)) {
      problem = { unknown: false, kid };
    }
    seen.set(jws, problem);
    return problem;
  };
}

/** Format 1 (ADR 0261): a compact JWS of its own; the next receipt links to SHA-256 of the JWS. */
function readFormat1(row: ExportLine, check: SignatureCheck): Read {
  const jws = typeof row.receipt === 'string' ? row.receipt : '';
  const decoded = decodeCompact(jws);
  if (!decoded) return { unreadable: 'no receipt on this line (expected {"receipt": "<JWS>", ...})' };
  // A batch root is signed by the same key, but it is no receipt: it names no answer and no place in a chain.
  if (decoded.header.typ === ROOT_TYP) return { unreadable: 'a batch root on this line, not a receipt' };
  const bad = check(jws);
  const problems = !bad
    ? []
    : bad.unknown
      ? [`signed with key "${bad.kid}", which is not among the published keys`]
      : [`the signature does not verify with key "${bad.kid}": this receipt was altered`];
  return { payload: decoded.payload, hash: sha256(jws), problems };
}

/**
 * Format 2 (ADR 0294): the leaf is SHA-256 of the payload's canonical JSON (salt included); its path folds
 * to the root the batch's JWS signs. The next receipt links to the leaf.
 */
function readFormat2(row: ExportLine, check: SignatureCheck): Read {
  const payload = row.receipt;
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) {
    return {
      unreadable: 'no receipt on this line (expected {"v": 2, "receipt": {...}, "path": [...], ...})',
    };
  }
  const p = payload as Record<string, unknown>;
  const leaf = sha256(canonicalJson(p));
  const problems: string[] = [];
  if (p.v !== 2 || typeof p.salt !== 'string')
    problems.push('the receipt is not of format 2 (no "v": 2 or no salt)');
  const root = foldPath(leaf, row.path);
  const batch = typeof row.batch === 'string' ? decodeCompact(row.batch) : null;
  if (root === null) problems.push('its path is not a list of {"left"} / {"right"} hashes');
  if (!batch) {
    problems.push('its batch (the signed root) is missing or not a JWS');
  } else {
    const bad = check(row.batch as string);
    if (bad?.unknown) {
      problems.push(`its batch root is signed with key "${bad.kid}", which is not among the published keys`);
    } else if (bad) {
      problems.push(
        `its batch root's signature does not verify with key "${bad.kid}": the batch was altered`,
      );
    } else if (batch.header.typ !== ROOT_TYP || batch.payload.v !== 2) {
      problems.push('its batch is not a signed batch root (typ or v differ)');
    } else if (root !== null && batch.payload.root !== root) {
      problems.push(
        "the receipt and its path do not lead to its batch's signed root: the receipt or its path was altered",
      );
    }
  }
  return { payload: p, hash: leaf, problems };
}
