// The bytes of a receipt (ADR 0261): canonical JSON, SHA-256 digests, Ed25519 compact JWS (RFC 7515, 8037),
// and the sealing of a signing key's private half. Synchronous: a receipt is signed inside the answer's
// transaction, which awaits nothing but its store.

import {
  createCipheriv,
  createDecipheriv,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  hash,
  hkdfSync,
  type KeyObject,
  randomBytes,
  sign,
  verify,
} from 'node:crypto';

/** JSON with object keys sorted at every level: the same value always gives the same bytes. */
export function canonicalJson(value: unknown): string {
  // Called for every answer's receipt on the tap path. The receipt builders make their objects with keys in
  // order already: for such a value JSON.stringify writes the same bytes, several times faster.
  return inOrder(value) ? JSON.stringify(value ?? null) : sortedJson(value);
}

/**
 * Whether JSON.stringify writes `value` canonically: every object a plain one (no `toJSON`, no prototype of
 * its own) whose keys come in sorted order, none of them an array index (JavaScript puts those first) and
 * none undefined (canonical JSON leaves those out, as JSON.stringify does, but an array would write null).
 */
function inOrder(value: unknown): boolean {
  if (value === null || typeof value !== 'object') {
    return typeof value !== 'bigint' && typeof value !== 'function' && typeof value !== 'symbol';
  }
  if (Array.isArray(value)) {
    for (const item of value) if (item === undefined || !inOrder(item)) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  let last = '';
  for (const k in value) {
    if ((k <= last && last !== '') || k === '' || isIndex(k)) return false;
    last = k;
    if (!inOrder((value as Record<string, unknown>)[k])) return false;
  }
  return true;
}

/** Whether a key is one JavaScript orders as an array index (before every other key). */
function isIndex(k: string): boolean {
  const c = k.charCodeAt(0);
  return c >= 48 && c <= 57;
}

/**
 * Canonical JSON by sorting each object's keys: the definition, and what the signing worker runs (it takes
 * one function's source).
 */
export function sortedJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i > 0 ? ',' : '') + sortedJson(value[i]);
    return `${out}]`;
  }
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj).sort();
  let out = '{';
  for (const k of keys) {
    const v = obj[k];
    if (v === undefined) continue;
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(k)}:${sortedJson(v)}`;
  }
  return `${out}}`;
}

/**
 * `value` with every plain object's keys in sorted order (a copy; anything else is kept as it is): canonical JSON
 * of the copy is the same text as of `value`, and takes {@link canonicalJson}'s fast path. For a value made
 * elsewhere and digested on the tap path: a tap's event comes in the view's key order (`id`, `preset`, `value`,
 * `screen`), and sorting the whole answer key by key cost about twice the digest's time (1 us of 2).
 */
export function inKeyOrder(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(inKeyOrder);
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const obj = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(obj).sort()) out[k] = inKeyOrder(obj[k]);
  return out;
}

/** SHA-256 of UTF-8 text, base64url. */
export function sha256(text: string): string {
  return hash('sha256', text, 'base64url');
}

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

/** Protected headers by kid, already encoded: the same few bytes for every receipt a key signs. */
const headers = new Map<string, string>();

/**
 * The protected header of a JWS signed with `kid`, base64url-encoded: a receipt's (format 1), or with `typ`
 * another kind (a batch root's, ADR 0294).
 */
export function jwsHeader(kid: string, typ = 'svc-receipt+jws'): string {
  const cacheKey = `${typ} ${kid}`;
  let header = headers.get(cacheKey);
  if (header === undefined) {
    header = b64(canonicalJson({ alg: 'EdDSA', kid, typ }));
    if (headers.size > 64) headers.clear();
    headers.set(cacheKey, header);
  }
  return header;
}

/** A compact JWS over `payload`, EdDSA (Ed25519), with `kid` (and `typ`, when given) in the protected header. */
export function signCompact(
  key: KeyObject,
  kid: string,
  payload: Record<string, unknown>,
  typ?: string,
): string {
  const input = `${jwsHeader(kid, typ)}.${b64(canonicalJson(payload))}`;
  return `${input}.${sign(null, Buffer.from(input), key).toString('base64url')}`;
}

/** A compact JWS's parts, decoded; null when it is not one. */
export function decodeCompact(jws: string): {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  input: string;
  signature: Buffer;
} | null {
  const parts = jws.split('.');
  if (parts.length !== 3) return null;
  try {
    const json = (p: string) =>
      JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown>;
    return {
      header: json(parts[0]!),
      payload: json(parts[1]!),
      input: `${parts[0]}.${parts[1]}`,
      signature: Buffer.from(parts[2]!, 'base64url'),
    };
  } catch {
    return null;
  }
}

/** Whether `signature` over `input` verifies with the public Ed25519 JWK. */
export function verifyWithJwk(jwk: Record<string, unknown>, input: string, signature: Buffer): boolean {
  try {
    const key = createPublicKey({ key: jwk as never, format: 'jwk' });
    return verify(null, Buffer.from(input), key, signature);
  } catch {
    return false;
  }
}

function sealKey(secret: Uint8Array, kid: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, Buffer.from('svc-receipt-keys'), Buffer.from(kid), 32));
}

/**
 * A new Ed25519 signing key: its kid (a digest of the public key), public JWK and private half sealed with
 * AES-256-GCM under a key derived from the service secret, so a copy of the database alone signs nothing.
 */
export function newSigningKey(secret: Uint8Array): {
  kid: string;
  publicJwk: Record<string, unknown>;
  sealedPrivate: string;
} {
  const pair = generateKeyPairSync('ed25519');
  const publicJwk = pair.publicKey.export({ format: 'jwk' }) as Record<string, unknown>;
  const kid = sha256(String(publicJwk.x)).slice(0, 16);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(secret, kid), iv);
  const der = pair.privateKey.export({ format: 'der', type: 'pkcs8' });
  const sealed = Buffer.concat([cipher.update(der), cipher.final()]);
  const sealedPrivate = ['v1', iv, sealed, cipher.getAuthTag()]
    .map((x) => (typeof x === 'string' ? x : x.toString('base64url')))
    .join('.');
  return { kid, publicJwk: { ...publicJwk, kid, alg: 'EdDSA', use: 'sig' }, sealedPrivate };
}

/** The private key of a sealed key record. */
export function unsealKey(secret: Uint8Array, kid: string, sealedPrivate: string): KeyObject {
  const [v, iv, sealed, tag] = sealedPrivate.split('.');
  if (v !== 'v1' || !iv || !sealed || !tag)
    throw new Error(`receipt key ${kid} is not a sealed key this release reads`);
  const decipher = createDecipheriv('aes-256-gcm', sealKey(secret, kid), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  const der = Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]);
  return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
}
