// Opaque tokens, numeric codes and their SHA-256 hashes. Only hashes are ever stored.
import { hash, timingSafeEqual } from 'node:crypto';
import { type Random, systemRandom } from './system.js';

/** Token prefixes of doc1/doc2: connector, OAuth access, OAuth refresh, management, app refresh, invite. */
export type TokenPrefix = 'svc_ct_' | 'svc_at_' | 'svc_rt_' | 'svc_mt_' | 'svc_ar_' | 'svc_inv_';

/**
 * A new opaque token: the prefix then 32 random bytes in base64url (43 characters).
 *
 * @example
 * ```ts
 * const token = mintToken('svc_ct_'); // 'svc_ct_Qm9...'
 * ```
 */
export function mintToken(prefix: TokenPrefix, random: Random = systemRandom): string {
  return mintSecret(prefix, random);
}

/**
 * A new secret of any prefix: the prefix then 32 random bytes (256 bits) in base64url. {@link mintToken} is
 * this for the service's own token prefixes; a program minting a secret of its own (the A2A bridge's
 * webhook signing secret `whsec_`) uses this, so every secret comes from one place and one randomness.
 *
 * @example
 * ```ts
 * mintSecret('whsec_'); // 'whsec_3q2+7w...' (43 characters after the prefix)
 * ```
 */
export function mintSecret(prefix: string, random: Random = systemRandom): string {
  return prefix + Buffer.from(random.bytes(32)).toString('base64url');
}

/**
 * A random name for something outside the database: a process's instance id, a throw-away test database,
 * a run's accounts. Lower-case hex of `bytes` random bytes, so it is safe in file names, URLs and
 * unquoted SQL identifiers. Not a secret (use {@link mintSecret}) and not a row id (use {@link newId}).
 *
 * @example
 * ```ts
 * `svc_test_${mintName(6)}`; // 'svc_test_9f86d081884c'
 * ```
 */
export function mintName(bytes = 8, random: Random = systemRandom): string {
  return Buffer.from(random.bytes(bytes)).toString('hex');
}

/** A 6-digit pairing code, uniformly random, leading zeros kept. */
export function mintPairingCode(random: Random = systemRandom): string {
  // Rejection sampling over 24 bits keeps the 10^6 codes equally likely (16,777,216 is not a multiple).
  const limit = 16_000_000;
  for (;;) {
    const b = random.bytes(3);
    const n = (b[0]! << 16) | (b[1]! << 8) | b[2]!;
    if (n < limit) return String(n % 1_000_000).padStart(6, '0');
  }
}

/**
 * The 6 digits of a typed code, or null: spaces and dashes between digits are ignored, so `123456`,
 * `123 456` and `123-456` are the same code on every surface that takes one (pairing, OAuth consent).
 *
 * @example
 * ```ts
 * normalizeCode('123-456'); // '123456'
 * normalizeCode('12345');   // null
 * ```
 */
export function normalizeCode(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 32) return null;
  const digits = value.replace(/[\s-]/g, '');
  return /^\d{6}$/.test(digits) ? digits : null;
}

/**
 * Hex SHA-256 of a token or code: what the store keeps.
 *
 * @example
 * ```ts
 * hashSecret('123456'); // '8d969eef...'
 * ```
 */
export function hashSecret(secret: string): string {
  // One-shot (UTF-8, like update(secret, 'utf8')): about 0.2 µs against 0.6 µs for a Hash object, on every
  // tool call's token lookup.
  return hash('sha256', secret, 'hex');
}

/** Constant-time comparison of two hex digests (false when lengths differ). */
export function digestsEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A random id for a row: a prefix and 16 random bytes in base64url. */
export function newId(prefix = '', random: Random = systemRandom): string {
  return prefix + Buffer.from(random.bytes(16)).toString('base64url');
}

/**
 * An id for a row written on the hot path (messages, screens, push intents): the prefix, the write's
 * instant in milliseconds as 9 base-36 digits, then the same 16 random bytes as {@link newId}. Ids made
 * later sort later, so their unique indexes grow at the right edge instead of dirtying a random leaf page
 * per row in every commit (ADR 0213). The random part is as long as `newId`'s: the id is as hard to guess.
 * The instant is no secret: every such row carries it as `created_at`.
 *
 * @example
 * ```ts
 * newTimedId('msg_', Date.now()); // 'msg_mihv2k3lcq1X...'
 * ```
 */
export function newTimedId(prefix: string, at: number, random: Random = systemRandom): string {
  const ms = Number.isFinite(at) && at > 0 ? Math.floor(at) : 0;
  return prefix + ms.toString(36).padStart(9, '0') + Buffer.from(random.bytes(16)).toString('base64url');
}
