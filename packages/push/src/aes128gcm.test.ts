import { createECDH, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { decodeSubscriptionKeys, encryptAes128gcm, MAX_PAYLOAD_BYTES } from './aes128gcm.js';
import { decryptAes128gcm } from './testing.js';

// http_ece (Mozilla's RFC 8188/8291 code, what web-push encrypts with) as an independent second opinion.
interface Ece {
  encrypt(buffer: Buffer, params: Record<string, unknown>): Buffer;
  decrypt(buffer: Buffer, params: Record<string, unknown>): Buffer;
}
const ece = createRequire(import.meta.url)('http_ece') as Ece;

function browser() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    ecdh,
    auth,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
  };
}

describe('encryptAes128gcm (RFC 8291)', () => {
  it('gives the same bytes as http_ece for the same sender key and salt', () => {
    const ua = browser();
    const sender = createECDH('prime256v1');
    sender.generateKeys();
    const salt = randomBytes(16);
    const payload = Buffer.from(JSON.stringify({ kind: 'message', title: 'Ada', body: 'Lunch? ☕' }));
    const ours = encryptAes128gcm(payload, decodeSubscriptionKeys(ua.keys), {
      salt,
      privateKey: sender.getPrivateKey(),
    });
    const theirs = ece.encrypt(payload, {
      version: 'aes128gcm',
      dh: ua.keys.p256dh,
      privateKey: sender,
      salt: salt.toString('base64url'),
      authSecret: ua.keys.auth,
    });
    expect(ours.toString('hex')).toBe(theirs.toString('hex'));
  });

  it('decrypts with http_ece and with the test push service, and uses a fresh key and salt per message', () => {
    const ua = browser();
    const payload = Buffer.from('x'.repeat(MAX_PAYLOAD_BYTES));
    const a = encryptAes128gcm(payload, decodeSubscriptionKeys(ua.keys));
    const b = encryptAes128gcm(payload, decodeSubscriptionKeys(ua.keys));
    expect(a.length).toBe(4096);
    expect(a.subarray(0, 16).equals(b.subarray(0, 16))).toBe(false);
    expect(a.subarray(21, 86).equals(b.subarray(21, 86))).toBe(false);
    const viaEce = ece.decrypt(a, { version: 'aes128gcm', privateKey: ua.ecdh, authSecret: ua.keys.auth });
    expect(viaEce.equals(payload)).toBe(true);
    const viaTest = decryptAes128gcm(b, {
      privateKey: ua.ecdh.getPrivateKey(),
      publicKey: ua.ecdh.getPublicKey(),
      auth: ua.auth,
    });
    expect(viaTest.equals(payload)).toBe(true);
  });

  it('uses a key pair made ahead when given one, and its public key is the header key id', () => {
    const ua = browser();
    const pair = createECDH('prime256v1');
    pair.generateKeys();
    const body = encryptAes128gcm(Buffer.from('hi'), decodeSubscriptionKeys(ua.keys), { keyPair: pair });
    expect(body.subarray(21, 86).equals(pair.getPublicKey())).toBe(true);
    const plain = ece.decrypt(body, { version: 'aes128gcm', privateKey: ua.ecdh, authSecret: ua.keys.auth });
    expect(plain.toString()).toBe('hi');
  });

  it('refuses a payload over 3993 octets and keys that are not a P-256 point or a 16-octet secret', () => {
    const ua = browser();
    expect(() =>
      encryptAes128gcm(Buffer.alloc(MAX_PAYLOAD_BYTES + 1), decodeSubscriptionKeys(ua.keys)),
    ).toThrow(/at most 3993/);
    expect(() => decodeSubscriptionKeys({ ...ua.keys, p256dh: 'AAAA' })).toThrow(/p256dh/);
    expect(() => decodeSubscriptionKeys({ ...ua.keys, auth: 'AAAA' })).toThrow(/auth/);
    // 65 octets starting 0x04 but not on the curve: the ECDH refuses it.
    const offCurve = Buffer.alloc(65, 1);
    offCurve[0] = 4;
    expect(() =>
      encryptAes128gcm(Buffer.from('hi'), { publicKey: offCurve, auth: randomBytes(16) }),
    ).toThrow();
  });
});
