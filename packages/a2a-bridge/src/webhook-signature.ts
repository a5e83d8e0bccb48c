// Signing of webhook deliveries: HMAC-SHA256 over "<timestamp>.<body>" with the agent's own secret.
import { createHmac } from 'node:crypto';
import { mintSecret } from '@screen-service/registry/kernel';

/** The header every delivery carries: `t=<unix seconds>,v1=<hex HMAC-SHA256>`. */
export const SIGNATURE_HEADER = 'svc-signature';
/** The header naming the delivery (the turn's messageId): the same on every retry, so a receiver can dedupe. */
export const DELIVERY_HEADER = 'svc-delivery';
/** Signatures older or newer than this are refused by {@link verifyWebhookSignature} (replays). */
export const SIGNATURE_TOLERANCE_S = 300;

/**
 * A fresh per-agent secret (`whsec_` + 32 random bytes, base64url), shown once at `pair`.
 *
 * @example
 * ```ts
 * const secret = newWebhookSecret(); // 'whsec_…'
 * ```
 */
export function newWebhookSecret(): string {
  return mintSecret('whsec_');
}

/**
 * The signature header value for a body sent at `timestamp` (unix seconds).
 *
 * @example
 * ```ts
 * signWebhookBody('whsec_x', '{"type":"turn"}', 1700000000); // 't=1700000000,v1=…'
 * ```
 */
export function signWebhookBody(secret: string, body: string, timestamp: number): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}
