// Signing of webhook deliveries: HMAC-SHA256 with the agent's own secret over the timestamp, the method, the
// URL, the delivery id and the body (issue 46: a signature must not fit another request).
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

/** The request a signature is bound to, besides its body. */
export interface SignedRequest {
  /** `POST` for every delivery. */
  method: string;
  /** The webhook URL exactly as registered (and requested). */
  url: string;
  /** The `svc-delivery` header's value. */
  delivery: string;
}

/** What the MAC covers: one field per line, the body last (it may hold newlines; nothing follows it). */
export function signedText(timestamp: number, request: SignedRequest, body: string): string {
  return `${timestamp}\n${request.method.toUpperCase()}\n${request.url}\n${request.delivery}\n${body}`;
}

/**
 * The signature header value for a delivery sent at `timestamp` (unix seconds): `v1` is the hex
 * HMAC-SHA256 of `"<t>\n<METHOD>\n<url>\n<delivery>\n<body>"`.
 *
 * @example
 * ```ts
 * signWebhookBody('whsec_x', '{"type":"turn"}', 1700000000, { method: 'POST', url, delivery: 'd1' });
 * // 't=1700000000,v1=…'
 * ```
 */
export function signWebhookBody(
  secret: string,
  body: string,
  timestamp: number,
  request: SignedRequest,
): string {
  const mac = createHmac('sha256', secret)
    .update(signedText(timestamp, request, body))
    .digest('hex');
  return `t=${timestamp},v1=${mac}`;
}
