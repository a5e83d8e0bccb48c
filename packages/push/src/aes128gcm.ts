// RFC 8291 message encryption (aes128gcm, RFC 8188) with Node's native crypto: one ECDH, three HKDFs and one
// AES-GCM per push. web-push's JavaScript HMAC-based HKDF cost about as much CPU as the ECDH (ADR 0206).
import { createCipheriv, createECDH, type ECDH, hkdfSync, randomBytes } from 'node:crypto';

/** RFC 8291 section 4: a push message body is at most 4096 octets, so the plaintext at most 3993. */
export const MAX_PAYLOAD_BYTES = 3993;
const RECORD_SIZE = 4096;
const CEK_INFO = Buffer.from('Content-Encoding: aes128gcm\0');
const NONCE_INFO = Buffer.from('Content-Encoding: nonce\0');
const KEY_INFO = Buffer.from('WebPush: info\0');

/** A subscription's keys, decoded once (see {@link decodeSubscriptionKeys}). */
export interface SubscriptionKeys {
  /** The user agent's P-256 public key, uncompressed (65 octets). */
  publicKey: Buffer;
  /** The 16-octet authentication secret. */
  auth: Buffer;
}

/**
 * Decodes and checks a subscription's base64url `p256dh` and `auth`; throws a message naming the key.
 *
 * @example
 * ```ts
 * const keys = decodeSubscriptionKeys(subscription.keys); // reuse for every message to this subscription
 * ```
 */
export function decodeSubscriptionKeys(keys: { p256dh: string; auth: string }): SubscriptionKeys {
  const publicKey = Buffer.from(keys.p256dh, 'base64url');
  if (publicKey.length !== 65 || publicKey[0] !== 4) {
    throw new Error(`p256dh is not an uncompressed P-256 point (${publicKey.length} octets)`);
  }
  const auth = Buffer.from(keys.auth, 'base64url');
  // RFC 8291 says 16 octets; web-push took longer ones, so subscriptions stored before keep working.
  if (auth.length < 16) throw new Error(`auth is shorter than 16 octets (${auth.length})`);
  return { publicKey, auth };
}

/** Options a test may fix; a sender leaves them out so each message has a fresh key pair and salt. */
export interface EncryptOptions {
  salt?: Buffer;
  /** The sender's ephemeral private key (32 octets). */
  privateKey?: Buffer;
  /**
   * A P-256 key pair made ahead (`createECDH('prime256v1')` + `generateKeys()`), used for this message only:
   * a sender may make them while idle so a burst skips that step. Never pass the same one twice.
   */
  keyPair?: ECDH;
}

/**
 * Encrypts one push message for a subscription (RFC 8291): a fresh ECDH key pair and salt per message, one
 * aes128gcm record of `payload` followed by the 0x02 delimiter, with the header `salt | rs | idlen | keyid`.
 *
 * @throws {Error} when the payload exceeds {@link MAX_PAYLOAD_BYTES} or the subscription key is not on P-256.
 * @example
 * ```ts
 * const body = encryptAes128gcm(Buffer.from('{"kind":"message"}'), decodeSubscriptionKeys(sub.keys));
 * ```
 */
export function encryptAes128gcm(
  payload: Buffer,
  to: SubscriptionKeys,
  options: EncryptOptions = {},
): Buffer {
  if (payload.length > MAX_PAYLOAD_BYTES) {
    throw new Error(`payload is ${payload.length} octets; Web Push carries at most ${MAX_PAYLOAD_BYTES}`);
  }
  let ecdh = options.keyPair;
  if (!ecdh) {
    ecdh = createECDH('prime256v1');
    if (options.privateKey) ecdh.setPrivateKey(options.privateKey);
    else ecdh.generateKeys();
  }
  const senderKey = ecdh.getPublicKey();
  const salt = options.salt ?? randomBytes(16);
  const shared = ecdh.computeSecret(to.publicKey);
  // RFC 8291 section 3.3: IKM = HKDF(auth, ecdh_secret, "WebPush: info" || 0 || ua_public || as_public, 32).
  const keyInfo = Buffer.concat([KEY_INFO, to.publicKey, senderKey]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, to.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, CEK_INFO, 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, NONCE_INFO, 12));
  const cipher = createCipheriv('aes-128-gcm', cek, nonce);
  const header = Buffer.allocUnsafe(21);
  salt.copy(header, 0);
  header.writeUInt32BE(RECORD_SIZE, 16);
  header[20] = senderKey.length;
  return Buffer.concat([
    header,
    senderKey,
    cipher.update(payload),
    cipher.update(Buffer.of(2)),
    cipher.final(),
    cipher.getAuthTag(),
  ]);
}
