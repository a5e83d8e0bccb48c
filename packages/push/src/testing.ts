// Entry of `@screen-service/push/testing`: a push service on 127.0.0.1 for tests and benchmarks. It plays the
// browser vendor's side: takes the real RFC 8030 request, checks the RFC 8292 VAPID JWT, and decrypts the
// RFC 8291 aes128gcm body with the subscriber's private key (written here from the RFCs, not with web-push).
import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A browser's subscription, with the private half the test keeps to decrypt. */
export interface TestSubscriber {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** One push the service received, decrypted and checked. */
export interface ReceivedPush {
  subscriber: string;
  /** The JSON the sender encrypted (parsed), or null when the body was empty. */
  payload: unknown;
  headers: {
    ttl: string | null;
    urgency: string | null;
    topic: string | null;
    contentEncoding: string | null;
  };
  /** The VAPID JWT's claims after its ES256 signature was verified against `k`. */
  vapid: { aud: string; exp: number; sub: string; publicKey: string };
  /** The status this service answered with. */
  status: number;
  /** `performance.now()` when the request arrived. */
  at: number;
  /** The sender's ephemeral public key from the aes128gcm header (base64url); RFC 8291 wants one per message. */
  senderKey: string | null;
}

/** A scripted answer for the next request(s) to one subscriber. */
export interface ScriptedAnswer {
  status: number;
  retryAfter?: string;
}

export interface TestPushService {
  url: string;
  /** A fresh subscriber (a new P-256 key pair and auth secret) at `<url>/push/<id>`. */
  subscriber(): TestSubscriber;
  /** Answers the next requests to `id` with these, in order (then 201 again). */
  script(id: string, answers: ScriptedAnswer[]): void;
  /** Every push received so far (successful or not), oldest first. */
  received: ReceivedPush[];
  /** Requests that failed a check (bad JWT, undecryptable body): a correct sender leaves this empty. */
  rejected: { subscriber: string; reason: string }[];
  /** Resolves when `n` pushes with a 2xx answer have arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<ReceivedPush[]>;
  close(): Promise<void>;
}

interface Keys {
  ecdh: ReturnType<typeof createECDH>;
  auth: Buffer;
}

/** RFC 8291 section 3.4 and RFC 8188: one aes128gcm record, decrypted with the subscriber's keys. */
export function decryptAes128gcm(
  body: Buffer,
  keys: { privateKey: Buffer; publicKey: Buffer; auth: Buffer },
): Buffer {
  const salt = body.subarray(0, 16);
  const idlen = body[20]!;
  const senderKey = body.subarray(21, 21 + idlen);
  const ciphertext = body.subarray(21 + idlen);
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(keys.privateKey);
  const shared = ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), keys.publicKey, senderKey]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, keys.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([
    decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
    decipher.final(),
  ]);
  // The last record ends with the delimiter 0x02 followed by zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('the record does not end with the 0x02 last-record delimiter');
  return padded.subarray(0, end);
}

/** RFC 8292: `vapid t=<jwt>, k=<key>`; verifies ES256 over the raw public key and returns the claims. */
export function verifyVapid(authorization: string | undefined): ReceivedPush['vapid'] {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  if (!m) throw new Error(`Authorization is not "vapid t=..., k=...": ${authorization}`);
  const [jwt, k] = [m[1]!, m[2]!];
  const [h, p, s] = jwt.split('.');
  const header = JSON.parse(Buffer.from(h!, 'base64url').toString());
  if (header.alg !== 'ES256') throw new Error(`JWT alg is ${header.alg}, not ES256`);
  const raw = Buffer.from(k, 'base64url');
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  const ok = verify(
    'sha256',
    Buffer.from(`${h}.${p}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(s!, 'base64url'),
  );
  if (!ok) throw new Error('VAPID JWT signature does not verify with k');
  const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
  return { aud: claims.aud, exp: claims.exp, sub: claims.sub, publicKey: k };
}

/**
 * Starts a push service on 127.0.0.1 (a free port).
 *
 * @example
 * ```ts
 * const ps = await startTestPushService();
 * const sub = ps.subscriber(); // register { endpoint, keys } as the device
 * const [push] = await ps.waitFor(1);
 * ```
 */
export async function startTestPushService(): Promise<TestPushService> {
  const keys = new Map<string, Keys>();
  const scripts = new Map<string, ScriptedAnswer[]>();
  const received: ReceivedPush[] = [];
  const rejected: { subscriber: string; reason: string }[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const okCount = () => received.filter((r) => r.status < 300).length;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      const id = /^\/push\/([^/]+)$/.exec(req.url ?? '')?.[1] ?? '';
      const k = keys.get(id);
      if (!k) {
        res.writeHead(404).end();
        return;
      }
      try {
        const vapid = verifyVapid(req.headers.authorization);
        const body = Buffer.concat(chunks);
        const plain =
          body.length === 0
            ? null
            : decryptAes128gcm(body, {
                privateKey: k.ecdh.getPrivateKey(),
                publicKey: k.ecdh.getPublicKey(),
                auth: k.auth,
              });
        const answer = scripts.get(id)?.shift() ?? { status: 201 };
        received.push({
          subscriber: id,
          payload: plain === null ? null : JSON.parse(plain.toString('utf8')),
          headers: {
            ttl: (req.headers.ttl as string | undefined) ?? null,
            urgency: (req.headers.urgency as string | undefined) ?? null,
            topic: (req.headers.topic as string | undefined) ?? null,
            contentEncoding: (req.headers['content-encoding'] as string | undefined) ?? null,
          },
          vapid,
          status: answer.status,
          at,
          senderKey: body.length > 21 ? body.subarray(21, 21 + body[20]!).toString('base64url') : null,
        });
        res.writeHead(answer.status, answer.retryAfter ? { 'Retry-After': answer.retryAfter } : {}).end();
        const n = okCount();
        for (const w of [...waiters]) {
          if (n >= w.n) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve();
          }
        }
      } catch (error) {
        rejected.push({ subscriber: id, reason: String(error) });
        res.writeHead(400).end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let next = 0;
  return {
    url,
    received,
    rejected,
    subscriber() {
      const id = `s${++next}${randomBytes(4).toString('hex')}`;
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      keys.set(id, { ecdh, auth });
      return {
        id,
        endpoint: `${url}/push/${id}`,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
      };
    },
    script(id, answers) {
      scripts.set(id, [...(scripts.get(id) ?? []), ...answers]);
    },
    waitFor(n, timeoutMs = 5000) {
      if (okCount() >= n) return Promise.resolve(received.filter((r) => r.status < 300));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`waited ${timeoutMs} ms for ${n} pushes, got ${okCount()}`)),
          timeoutMs,
        );
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve(received.filter((r) => r.status < 300));
          },
        });
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
