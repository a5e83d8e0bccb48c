// A webhook receiver's check of a delivery's signature (the bridge itself only signs; its CLI never
// bundles this module).
import { timingSafeEqual } from 'node:crypto';
import { SIGNATURE_TOLERANCE_S, signWebhookBody } from './webhook-signature.js';

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
