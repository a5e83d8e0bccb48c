// One push as an HTTP exchange, shared by the in-thread transport and the pool's workers: encrypt (RFC 8291
// aes128gcm, native crypto, ADR 0206), the VAPID JWT (RFC 8292, signed by web-push once per origin and
// lifetime), and a POST over a keep-alive node:http(s) agent per scheme. It reports what happened as data;
// what that means for the outbox (sent, gone, retry, failed) is decided in one place, `outcomeOfPost`.
import { createECDH, type ECDH } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { pinnedLookup } from '@screen-service/io-kit/outbound';
import webPush from 'web-push';
import { decodeSubscriptionKeys, encryptAes128gcm, type SubscriptionKeys } from './aes128gcm.js';
import type { PushRequest } from './push-transport.js';
import type { VapidKeys } from './vapid.js';

export interface PushPosterOptions {
  /** Already checked with `checkVapidKeys`. */
  vapid: VapidKeys;
  timeoutMs: number;
  maxSockets: number;
  /** Wall clock for the JWT's expiry. */
  now: () => number;
}

/** What became of one POST, before any rule is applied (plain data: it crosses a worker boundary). */
export type PostResult =
  | { kind: 'answer'; status: number; retryAfter: string | null; body: string }
  /** The subscription's keys or the payload cannot be encrypted: it will never work. */
  | { kind: 'unencryptable'; reason: string }
  /** The outbound guard refused the endpoint (not https, or not a public address): nothing was sent. */
  | { kind: 'refused'; reason: string }
  /** No answer: connection refused or reset, timeout, DNS. */
  | { kind: 'unreachable'; reason: string };

/** The address the outbound guard checked for this push's endpoint: the POST connects there and nowhere else. */
export interface PinnedAddress {
  address: string;
  family: 4 | 6;
}

export interface PushPoster {
  post(request: PushRequest, pinned: PinnedAddress): Promise<PostResult>;
  /** Closes the kept-alive connections. */
  close(): void;
}

/** VAPID JWTs last 12 hours (RFC 8292 allows up to 24). */
const VAPID_LIFETIME_S = 12 * 3600;
/** A kept JWT is replaced this long before it expires. */
const VAPID_MARGIN_S = 3600;
/** Ephemeral key pairs made while idle, one per message of a burst (RFC 8291: a fresh pair per message). */
const SPARE_KEY_PAIRS = 1024;
/** Key pairs made per idle step (~35 µs each here), so a step never holds the thread long. */
const KEY_PAIRS_PER_STEP = 16;
/** Subscriptions whose parsed endpoint and decoded keys are kept. */
const MAX_TARGETS = 10_000;

interface Target {
  url: URL;
  origin: string;
  keys: SubscriptionKeys;
}

interface HttpAnswer {
  status: number;
  retryAfter: string | null;
  body: string;
}

/**
 * One POST over node:http(s) with keep-alive (measured: about 3x cheaper per request than fetch here), to
 * the pinned address only. A redirect is an answer like any other: it is never followed.
 */
function post(
  url: URL,
  pinned: PinnedAddress,
  headers: Record<string, string>,
  body: Uint8Array | null,
  agents: { http: http.Agent; https: https.Agent },
  timeoutMs: number,
): Promise<HttpAnswer> {
  const secure = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request(
      url,
      {
        method: 'POST',
        headers,
        agent: secure ? agents.https : agents.http,
        timeout: timeoutMs,
        // The socket goes to the address the guard checked, not to a fresh DNS answer (rebinding).
        lookup: pinnedLookup(pinned) as never,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => {
          if (chunks.length < 8) chunks.push(c);
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: (res.headers['retry-after'] as string | undefined) ?? null,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body ?? undefined);
  });
}

/** Creates the encrypt-sign-POST step (used in this thread or in each pool worker). */
export function createPushPoster(options: PushPosterOptions): PushPoster {
  const { vapid, timeoutMs, maxSockets, now } = options;
  // One VAPID JWT per push service origin, reused until an hour before it expires: signing each request
  // cost as much CPU as the encryption (measured), and RFC 8292 allows reuse within the expiry.
  const jwts = new Map<string, { header: string; exp: number }>();
  const vapidHeader = (audience: string): string => {
    const nowS = Math.floor(now() / 1000);
    const kept = jwts.get(audience);
    if (kept && kept.exp - nowS > VAPID_MARGIN_S) return kept.header;
    const exp = nowS + VAPID_LIFETIME_S;
    const { Authorization } = webPush.getVapidHeaders(
      audience,
      vapid.subject,
      vapid.publicKey,
      vapid.privateKey,
      'aes128gcm',
      exp,
    ) as { Authorization: string };
    jwts.set(audience, { header: Authorization, exp });
    return Authorization;
  };
  // Each subscription's endpoint parsed and keys decoded once (bounded: dropped whole when full).
  const targets = new Map<string, Target>();
  const targetOf = (subscription: PushRequest['subscription']): Target => {
    const key = `${subscription.endpoint} ${subscription.keys.p256dh} ${subscription.keys.auth}`;
    let t = targets.get(key);
    if (!t) {
      const url = new URL(subscription.endpoint);
      if (url.protocol !== 'https:' && url.protocol !== 'http:') {
        throw new Error(`the endpoint is not an http(s) URL: ${url.protocol}`);
      }
      t = { url, origin: url.origin, keys: decodeSubscriptionKeys(subscription.keys) };
      if (targets.size >= MAX_TARGETS) targets.clear();
      targets.set(key, t);
    }
    return t;
  };
  const agents = {
    http: new http.Agent({ keepAlive: true, maxSockets }),
    https: new https.Agent({ keepAlive: true, maxSockets }),
  };
  // Key generation is the one step of the encryption that does not depend on the push: it is done in small
  // steps while no push is in flight, and each pair is taken (and dropped) by one message.
  const spare: ECDH[] = [];
  let inFlight = 0;
  let refill: NodeJS.Timeout | null = null;
  let closed = false;
  const makeSpares = () => {
    refill = null;
    if (inFlight > 0 || closed) return;
    for (let i = 0; i < KEY_PAIRS_PER_STEP && spare.length < SPARE_KEY_PAIRS; i++) {
      const pair = createECDH('prime256v1');
      pair.generateKeys();
      spare.push(pair);
    }
    if (spare.length < SPARE_KEY_PAIRS) scheduleSpares();
  };
  const scheduleSpares = () => {
    if (refill || closed) return;
    refill = setTimeout(makeSpares, 1);
    refill.unref();
  };
  scheduleSpares();
  return {
    async post(request: PushRequest, pinned: PinnedAddress): Promise<PostResult> {
      inFlight++;
      try {
        return await postOne(request, pinned);
      } finally {
        if (--inFlight === 0) scheduleSpares();
      }
    },
    close() {
      closed = true;
      if (refill) clearTimeout(refill);
      spare.length = 0;
      agents.http.destroy();
      agents.https.destroy();
    },
  };

  async function postOne(request: PushRequest, pinned: PinnedAddress): Promise<PostResult> {
    let target: Target;
    let body: Buffer;
    try {
      target = targetOf(request.subscription);
      const keyPair = spare.pop();
      body = encryptAes128gcm(Buffer.from(request.payload, 'utf8'), target.keys, keyPair ? { keyPair } : {});
    } catch (error) {
      return { kind: 'unencryptable', reason: String(error) };
    }
    const headers: Record<string, string> = {
      Authorization: vapidHeader(target.origin),
      TTL: String(request.ttl),
      Urgency: request.urgency,
      'Content-Encoding': 'aes128gcm',
      'Content-Type': 'application/octet-stream',
      'Content-Length': String(body.length),
    };
    if (request.topic) headers.Topic = request.topic;
    try {
      const res = await post(target.url, pinned, headers, body, agents, timeoutMs);
      return { kind: 'answer', ...res };
    } catch (error) {
      return { kind: 'unreachable', reason: String(error) };
    }
  }
}
