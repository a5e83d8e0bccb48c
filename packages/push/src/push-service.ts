// The person's push use cases: their devices' subscriptions, the settings page's status, and the silent
// `revoked` push of doc2 (queued in the outbox like every other push).

import { classifyAddress } from '@screen-service/io-kit/outbound';
import {
  type Clock,
  newId as defaultNewId,
  type Random,
  ServiceError,
  systemClock,
  systemRandom,
} from '@screen-service/registry/kernel';
import type { PushSubscriptionRecord, Store } from '@screen-service/registry/model';
import { createPushAttention, type PushAttention, type PushSettingsView } from './push-attention.js';

/** Devices' subscriptions one account may hold (a person with a phone, a laptop and a few browsers). */
export const MAX_SUBSCRIPTIONS_PER_ACCOUNT = 20;
/** Subscriptions kept per device id: a new one beyond this replaces the device's oldest. */
export const MAX_SUBSCRIPTIONS_PER_DEVICE = 2;

/** A subscription as the app sees it (the endpoint's host only: the full URL is a bearer capability). */
export interface PushSubscriptionView {
  id: string;
  device: string | null;
  /** The push service's host (fcm.googleapis.com, web.push.apple.com, ...). */
  service: string;
  created_at: string;
}

/** The settings page's view of push. */
export interface PushStatus {
  /** False when the operator set no VAPID keys: the app says notifications are not configured. */
  configured: boolean;
  /** The VAPID public key the browser subscribes with (`applicationServerKey`), or null. */
  public_key: string | null;
  subscriptions: PushSubscriptionView[];
  /** Quiet hours, urgent asks and the per-agent budget (issue 39). */
  settings: PushSettingsView;
}

/** What a browser's `PushSubscription.toJSON()` gives, plus the app's device id. */
export interface SubscribeInput {
  endpoint: unknown;
  keys: unknown;
  device?: unknown;
}

export interface PushService extends PushAttention {
  status(userId: string): Promise<PushStatus>;
  /** Stores one device's subscription (again: new keys or device id). `CONFLICT` when another account holds the endpoint. */
  subscribe(userId: string, input: SubscribeInput): Promise<PushSubscriptionView>;
  /** Removes this user's subscription with that endpoint; false when there was none. */
  unsubscribe(userId: string, endpoint: unknown): Promise<boolean>;
  /**
   * Queues the silent `revoked` push (doc2 Events) to every device of `userId`: no content, the app
   * refreshes its list. The caller checks that no live grant remains. Returns how many were queued.
   */
  revoked(userId: string, agentId: string): Promise<number>;
}

export interface PushServiceOptions {
  store: Store;
  /** The VAPID public key (base64url), or null when push is not configured. */
  publicKey: string | null;
  now?: Clock;
  random?: Random;
  /** Wakes the sender after something was queued. */
  onPushQueued?: () => void;
  /**
   * Accepts loopback endpoints, also over plain http (tests and local push services only; the server's
   * SVC_OUTBOUND_LOOPBACK). Default false: https endpoints only, and never a literal private address.
   */
  allowLoopback?: boolean;
  /** Default {@link MAX_SUBSCRIPTIONS_PER_ACCOUNT}. */
  maxPerAccount?: number;
  /** Default {@link MAX_SUBSCRIPTIONS_PER_DEVICE}. */
  maxPerDevice?: number;
}

const B64URL = /^[A-Za-z0-9_-]+=*$/;

function keyBytes(value: unknown, field: string, length: number, what: string): string {
  if (typeof value !== 'string' || !B64URL.test(value) || Buffer.from(value, 'base64url').length !== length) {
    throw new ServiceError(
      'INVALID_INPUT',
      `${field} must be ${what} (${length} bytes, base64url), as PushSubscription.toJSON() gives it.`,
      { field },
    );
  }
  return value.replace(/=+$/, '');
}

const NOT_AN_ENDPOINT = 'endpoint must be the https URL of the browser push subscription.';

/**
 * Push services answer over HTTPS at public addresses. Refused here: other schemes, credentials in the URL,
 * and hosts that are a literal non-public address or localhost. A name is resolved and checked again at
 * every send (the outbound guard of @screen-service/io-kit), so a name pointing inside gets nothing either.
 */
function endpointOf(value: unknown, allowLoopback: boolean): string {
  let url: URL | null = null;
  try {
    url = typeof value === 'string' && value.length <= 2048 ? new URL(value) : null;
  } catch {
    url = null;
  }
  // A URL with credentials is refused like a non-URL: the push service never needs them.
  if (url === null || `${url.username}${url.password}` !== '') {
    throw new ServiceError('INVALID_INPUT', NOT_AN_ENDPOINT, { field: 'endpoint' });
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const kind = /^localhost\.?$|\.localhost\.?$/i.test(host) ? 'loopback' : classifyAddress(host);
  const loopbackOk = allowLoopback && kind === 'loopback';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopbackOk)) {
    throw new ServiceError('INVALID_INPUT', NOT_AN_ENDPOINT, { field: 'endpoint' });
  }
  if (kind !== 'invalid' && kind !== 'public' && !loopbackOk) {
    throw new ServiceError(
      'INVALID_INPUT',
      `endpoint must be a push service on the internet, not a ${kind} address (${host}).`,
      { field: 'endpoint' },
    );
  }
  return url.href;
}

export function toSubscriptionView(s: PushSubscriptionRecord): PushSubscriptionView {
  return {
    id: s.id,
    device: s.device,
    service: new URL(s.endpoint).host,
    created_at: new Date(s.createdAt).toISOString(),
  };
}

/**
 * Creates the push use cases.
 *
 * @example
 * ```ts
 * const push = createPushService({ store, publicKey: vapid.publicKey });
 * await push.subscribe(userId, { endpoint, keys: { p256dh, auth }, device: 'phone-1' });
 * ```
 */
export function createPushService(options: PushServiceOptions): PushService {
  const { store } = options;
  const now = options.now ?? systemClock;
  const random = options.random ?? systemRandom;
  const newId = (prefix: string) => defaultNewId(prefix, random);
  const perAccount = options.maxPerAccount ?? MAX_SUBSCRIPTIONS_PER_ACCOUNT;
  const perDevice = options.maxPerDevice ?? MAX_SUBSCRIPTIONS_PER_DEVICE;
  /**
   * The caps (issue 46): one push per line goes to every subscription, so their number is what one agent line
   * costs. A device's new subscription replaces its oldest beyond the device cap (a browser that subscribed
   * again); an account at its cap is refused with how to make room.
   */
  async function makeRoom(userId: string, endpoint: string, device: string | null): Promise<void> {
    const subs = await store.push.listSubscriptions(userId);
    if (subs.some((s) => s.endpoint === endpoint)) return;
    const mine = device === null ? [] : subs.filter((s) => s.device === device);
    mine.sort((a, b) => a.createdAt - b.createdAt);
    let count = subs.length;
    for (const old of mine.slice(0, Math.max(0, mine.length - perDevice + 1))) {
      await store.push.removeSubscription(userId, old.endpoint);
      count--;
    }
    if (count >= perAccount) {
      throw new ServiceError(
        'LIMIT_EXCEEDED',
        `This account already has ${perAccount} devices with notifications: turn notifications off on one in Settings, then try again.`,
        { field: 'endpoint' },
      );
    }
  }
  const attention = createPushAttention({ store, now });
  return {
    ...attention,
    async status(userId) {
      const [subs, settings] = await Promise.all([
        store.push.listSubscriptions(userId),
        attention.settings(userId),
      ]);
      return {
        configured: options.publicKey !== null,
        public_key: options.publicKey,
        subscriptions: subs.map(toSubscriptionView),
        settings,
      };
    },
    async subscribe(userId, input) {
      const endpoint = endpointOf(input.endpoint, options.allowLoopback === true);
      const keys = (typeof input.keys === 'object' && input.keys !== null ? input.keys : {}) as Record<
        string,
        unknown
      >;
      const p256dh = keyBytes(keys.p256dh, 'keys.p256dh', 65, 'the P-256 public key');
      const auth = keyBytes(keys.auth, 'keys.auth', 16, 'the auth secret');
      if (Buffer.from(p256dh, 'base64url')[0] !== 4) {
        throw new ServiceError(
          'INVALID_INPUT',
          'keys.p256dh must be an uncompressed P-256 point (first byte 0x04).',
          {
            field: 'keys.p256dh',
          },
        );
      }
      const device = input.device;
      if (
        device !== undefined &&
        device !== null &&
        (typeof device !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(device))
      ) {
        throw new ServiceError('INVALID_INPUT', 'device must be 1 to 64 letters, digits, "_" or "-".', {
          field: 'device',
        });
      }
      await makeRoom(userId, endpoint, (device as string | null | undefined) ?? null);
      const saved = await store.push.saveSubscription({
        id: newId('psub_'),
        userId,
        endpoint,
        p256dh,
        auth,
        device: (device as string | null | undefined) ?? null,
        createdAt: now(),
      });
      if (!saved) {
        // Moving it would let whoever learns an endpoint silence another person's phone.
        throw new ServiceError(
          'CONFLICT',
          "This browser's push subscription belongs to another account: unsubscribe it in the browser (pushManager) and subscribe again for a new endpoint.",
          { field: 'endpoint' },
        );
      }
      return toSubscriptionView(saved);
    },
    async unsubscribe(userId, endpoint) {
      if (typeof endpoint !== 'string' || endpoint === '') {
        throw new ServiceError('INVALID_INPUT', 'endpoint is required (the subscription to remove).', {
          field: 'endpoint',
        });
      }
      return store.push.removeSubscription(userId, endpoint);
    },
    async revoked(userId, agentId) {
      const n = await store.push.enqueueRevoked({ id: newId('push_'), userId, agentId, at: now() });
      if (n > 0) options.onPushQueued?.();
      return n;
    },
  };
}
