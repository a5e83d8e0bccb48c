// The port the push sender talks through: one encrypted Web Push request to one subscription, and what the
// push service answered. @screen-service/push implements it with web-push; tests can play the push service.

/** RFC 8030 Urgency. */
export type PushUrgency = 'very-low' | 'low' | 'normal' | 'high';

/** One push to send. */
export interface PushRequest {
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  /** The JSON text to encrypt (RFC 8291 aes128gcm). */
  payload: string;
  /** Seconds the push service may keep it for an offline device (RFC 8030 TTL). */
  ttl: number;
  urgency: PushUrgency;
  /** RFC 8030 Topic: a queued push with the same topic is replaced, not stacked (base64url, up to 32). */
  topic?: string;
}

/** What became of one push. */
export type PushOutcome =
  /** 2xx: the push service took it. */
  | { status: 'sent' }
  /** 404/410: the subscription is gone for good; remove it. */
  | { status: 'gone'; httpStatus: number }
  /** 429, 5xx or a network failure: try again later, not before `retryAfterMs` when the service said so. */
  | { status: 'retry'; httpStatus: number | null; retryAfterMs?: number; reason: string }
  /** Any other answer (400, 403 VAPID mismatch, 413 too large): trying again would fail the same way. */
  | { status: 'failed'; httpStatus: number; reason: string };

/** Sends one push. Never throws for what the push service answers; returns the outcome instead. */
export interface PushTransport {
  send(request: PushRequest): Promise<PushOutcome>;
}
