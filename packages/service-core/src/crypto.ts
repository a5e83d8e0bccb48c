// Opaque tokens, numeric codes and their SHA-256 hashes. Only hashes are ever stored.
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** Token prefixes of doc1/doc2: connector, OAuth access, OAuth refresh, management, app refresh. */
export type TokenPrefix = 'svc_ct_' | 'svc_at_' | 'svc_rt_' | 'svc_mt_' | 'svc_ar_';

/**
 * A new opaque token: the prefix then 32 random bytes in base64url (43 characters).
 *
 * @example
 * ```ts
 * const token = mintToken('svc_ct_'); // 'svc_ct_Qm9...'
 * ```
 */
export function mintToken(prefix: TokenPrefix): string {
  return prefix + randomBytes(32).toString('base64url');
}

/** A 6-digit pairing code, uniformly random, leading zeros kept. */
export function mintPairingCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
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
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex digests (false when lengths differ). */
export function digestsEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A random id for a row: a prefix and 16 random bytes in base64url. */
export function newId(prefix = ''): string {
  return prefix + randomBytes(16).toString('base64url');
}
