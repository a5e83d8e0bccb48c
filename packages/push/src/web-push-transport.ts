// The core's PushTransport in this thread: encrypt, sign and POST with `createPushPoster`, and what the
// push service's answer means for the outbox (RFC 8030): sent, gone, retry after, or failed.

import { createOutboundGuard, type Resolver } from '@screen-service/io-kit/outbound';
import { createPushPoster, type PinnedAddress, type PostResult } from './push-poster.js';
import type { PushOutcome, PushRequest, PushTransport } from './push-transport.js';
import { checkVapidKeys, type VapidKeys } from './vapid.js';

export interface WebPushTransportOptions {
  vapid: VapidKeys;
  /** Give up on one request after this long (default 10 s); the push is retried later. */
  timeoutMs?: number;
  /** The clock used to read an HTTP-date `Retry-After` and date the VAPID JWT (default: the wall clock). */
  now?: () => number;
  /** Connections kept open per push service (default 64). */
  maxSockets?: number;
  /** Resolves an endpoint's host before each send (default: the system resolver); tests pass a stub. */
  resolve?: Resolver;
  /**
   * Sends to loopback endpoints (and plain http to them): tests and local development only, the server's
   * SVC_OUTBOUND_LOOPBACK. Default false: only https endpoints at public addresses get a push.
   */
  allowLoopback?: boolean;
}

/**
 * A transport that holds connections (and, for the pool, threads): close it after the sender stopped.
 *
 * @example
 * ```ts
 * await sender.stop();
 * await transport.close();
 * ```
 */
export interface ClosablePushTransport extends PushTransport {
  /** Waits for the sends in flight, then releases connections and threads; later sends answer `retry`. */
  close(): Promise<void>;
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
 * The one mapping from what a POST did to what the sender does next (used in-thread and for the pool).
 *
 * @example
 * ```ts
 * outcomeOfPost({ kind: 'answer', status: 410, retryAfter: null, body: '' }, Date.now()); // { status: 'gone', httpStatus: 410 }
 * ```
 */
export function outcomeOfPost(result: PostResult, now: number): PushOutcome {
  if (result.kind === 'refused') {
    // Nothing left the machine; the same endpoint would be refused again (status 0: no HTTP exchange).
    return { status: 'failed', httpStatus: 0, reason: `the endpoint was refused: ${result.reason}` };
  }
  if (result.kind === 'unencryptable') {
    // A subscription we cannot encrypt for (or a payload too large) will never work: drop it like a 400.
    return {
      status: 'failed',
      httpStatus: 400,
      reason: `cannot encrypt for this subscription: ${result.reason}`,
    };
  }
  if (result.kind === 'unreachable') {
    return {
      status: 'retry',
      httpStatus: null,
      reason: `could not reach the push service: ${result.reason}`,
    };
  }
  return outcomeOf(
    result.status,
    parseRetryAfter(result.retryAfter, now),
    result.status >= 300 ? result.body : '',
  );
}

/** Transport defaults shared by the in-thread transport and the pool. */
export function transportDefaults(options: WebPushTransportOptions) {
  return {
    vapid: checkVapidKeys(options.vapid),
    timeoutMs: options.timeoutMs ?? 10_000,
    maxSockets: options.maxSockets ?? 64,
    now: options.now ?? (() => Date.now()),
  };
}

/**
 * The endpoint check both transports run on the sending side, at send time (after DNS, so a name that
 * rebinds does not help): the address to connect to, or why nothing is sent.
 */
export function createEndpointCheck(
  options: WebPushTransportOptions,
): (request: PushRequest) => Promise<PinnedAddress | PostResult> {
  const guard = createOutboundGuard({
    ...(options.resolve ? { resolve: options.resolve } : {}),
    allowLoopback: options.allowLoopback === true,
  });
  return async (request) => {
    try {
      const { address, family } = await guard.check(request.subscription.endpoint);
      return { address, family };
    } catch (error) {
      return { kind: 'refused', reason: (error as Error).message };
    }
  };
}

/**
 * Creates the transport the server's push sender uses; everything runs on the calling thread.
 *
 * @throws {PushConfigError} when the VAPID settings are malformed (see {@link checkVapidKeys}).
 * @example
 * ```ts
 * const transport = createWebPushTransport({ vapid: { publicKey, privateKey, subject: 'mailto:ops@example.com' } });
 * const sender = core.createPushSender(transport);
 * // on shutdown: await sender.stop(); await transport.close();
 * ```
 */
export function createWebPushTransport(options: WebPushTransportOptions): ClosablePushTransport {
  const settings = transportDefaults(options);
  const poster = createPushPoster(settings);
  const checkEndpoint = createEndpointCheck(options);
  const inFlight = new Set<Promise<unknown>>();
  let closed = false;
  const postChecked = async (request: PushRequest): Promise<PostResult> => {
    const pinned = await checkEndpoint(request);
    return 'kind' in pinned ? pinned : poster.post(request, pinned);
  };
  return {
    async send(request: PushRequest): Promise<PushOutcome> {
      if (closed) return { status: 'retry', httpStatus: null, reason: 'the push transport is closed' };
      const sending = postChecked(request);
      inFlight.add(sending);
      try {
        return outcomeOfPost(await sending, settings.now());
      } finally {
        inFlight.delete(sending);
      }
    },
    async close() {
      closed = true;
      await Promise.allSettled([...inFlight]);
      poster.close();
    },
  };
}
