// PKCE (RFC 7636), S256 only.
import { createHash } from 'node:crypto';
import { digestsEqual } from '@screen-service/registry/kernel';

/** 43 to 128 characters of [A-Za-z0-9-._~] (RFC 7636 section 4.1). */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** BASE64URL(SHA-256(verifier)): always 43 characters. */
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export const isCodeVerifier = (v: unknown): v is string => typeof v === 'string' && VERIFIER.test(v);
export const isS256Challenge = (v: unknown): v is string => typeof v === 'string' && CHALLENGE.test(v);

/**
 * The S256 challenge of a verifier.
 *
 * @example
 * ```ts
 * s256Challenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'); // 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'
 * ```
 */
export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** Constant-time check that `verifier` produces `challenge`. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  return digestsEqual(s256Challenge(verifier), challenge);
}
