// Signing of webhook deliveries: HMAC-SHA256 over "<timestamp>.<body>" with the agent's own secret.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

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
  return `whsec_${randomBytes(32).toString('base64url')}`;
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

/**
 * Checks a delivery's signature header against the raw body (a receiver's side, exported so a Node
 * receiver need not write it). True only for a matching MAC within {@link SIGNATURE_TOLERANCE_S} of `now`.
 *
 * @example
 * ```ts
 * if (!verifyWebhookSignature(secret, rawBody, req.headers['svc-signature'])) res.writeHead(401).end();
 * ```
 */
export function verifyWebhookSignature(
  secret: string,
  body: string,
  header: string | undefined | null,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): boolean {
  if (!header) return false;
  const fields = new Map(
    header.split(',').map((kv) => {
      const i = kv.indexOf('=');
      return [kv.slice(0, i).trim(), kv.slice(i + 1).trim()] as const;
    }),
  );
  const t = Number(fields.get('t'));
  const given = fields.get('v1') ?? '';
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > SIGNATURE_TOLERANCE_S) return false;
  const expected = signWebhookBody(secret, body, t).split('v1=')[1]!;
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
