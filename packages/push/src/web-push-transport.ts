// service-core's PushTransport in this thread: we encrypt (RFC 8291 aes128gcm, native crypto), web-push
// signs the VAPID JWT (RFC 8292, once per origin and lifetime), and we POST over keep-alive node:http(s) to
// own timeouts and read the answer (RFC 8030).
import http from 'node:http';
import https from 'node:https';
import type { PushOutcome, PushRequest, PushTransport } from '@screen-service/service-core';
import webPush from 'web-push';
import { decodeSubscriptionKeys, encryptAes128gcm, type SubscriptionKeys } from './aes128gcm.js';
import { checkVapidKeys, type VapidKeys } from './vapid.js';

export interface WebPushTransportOptions {
  vapid: VapidKeys;
  /** Give up on one request after this long (default 10 s); the push is retried later. */
  timeoutMs?: number;
  /** The clock used to read an HTTP-date `Retry-After` (default: the wall clock). */
  now?: () => number;
  /** Connections kept open per push service (default 64). */
  maxSockets?: number;
}

/** VAPID JWTs last 12 hours (RFC 8292 allows up to 24). */
const VAPID_LIFETIME_S = 12 * 3600;

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

/** One POST over node:http(s) with keep-alive (measured: about 3x cheaper per request than fetch here). */
function post(
  url: URL,
  headers: Record<string, string>,
  body: Uint8Array | null,
  agents: { http: http.Agent; https: https.Agent },
  timeoutMs: number,
): Promise<HttpAnswer> {
  const secure = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request(
      url,
      { method: 'POST', headers, agent: secure ? agents.https : agents.http, timeout: timeoutMs },
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

/**
 * Reads RFC 9110 `Retry-After`: delay-seconds or an HTTP-date; undefined when absent or unreadable.
 *
 * @example
 * ```ts
 * parseRetryAfter('120', Date.now()); // 120000
 * ```
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Maps a push service's HTTP status to what the sender does next. */
export function outcomeOf(status: number, retryAfterMs: number | undefined, body: string): PushOutcome {
  if (status >= 200 && status < 300) return { status: 'sent' };
  if (status === 404 || status === 410) return { status: 'gone', httpStatus: status };
  const reason = `push service answered ${status}${body ? `: ${body.slice(0, 200)}` : ''}`;
  if (status === 429 || status >= 500) {
    return {
      status: 'retry',
      httpStatus: status,
      reason,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    };
  }
  return { status: 'failed', httpStatus: status, reason };
}

/**
 * Creates the transport the server's push sender uses.
 *
 * @throws {PushConfigError} when the VAPID settings are malformed (see {@link checkVapidKeys}).
 * @example
 * ```ts
 * const transport = createWebPushTransport({ vapid: { publicKey, privateKey, subject: 'mailto:ops@example.com' } });
 * const sender = core.createPushSender(transport);
 * ```
 */
export function createWebPushTransport(options: WebPushTransportOptions): PushTransport {
  const vapid = checkVapidKeys(options.vapid);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const now = options.now ?? (() => Date.now());
  const maxSockets = options.maxSockets ?? 64;
  // One VAPID JWT per push service origin, reused until an hour before it expires: signing each request
  // cost as much CPU as the encryption (measured), and RFC 8292 allows reuse within the expiry.
  const jwts = new Map<string, { header: string; exp: number }>();
  const vapidHeader = (audience: string): string => {
    const nowS = Math.floor(now() / 1000);
    const kept = jwts.get(audience);
    if (kept && kept.exp - nowS > 3600) return kept.header;
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
  return {
    async send(request: PushRequest): Promise<PushOutcome> {
      let target: Target;
      let body: Buffer;
      try {
        target = targetOf(request.subscription);
        body = encryptAes128gcm(Buffer.from(request.payload, 'utf8'), target.keys);
      } catch (error) {
        // A subscription we cannot encrypt for (or a payload too large) will never work: drop it like a 400.
        return {
          status: 'failed',
          httpStatus: 400,
          reason: `cannot encrypt for this subscription: ${String(error)}`,
        };
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
        const res = await post(target.url, headers, body, agents, timeoutMs);
        return outcomeOf(
          res.status,
          parseRetryAfter(res.retryAfter, now()),
          res.status >= 300 ? res.body : '',
        );
      } catch (error) {
        return {
          status: 'retry',
          httpStatus: null,
          reason: `could not reach the push service: ${String(error)}`,
        };
      }
    },
  };
}
