// A webhook receiver's check of a delivery's signature (the bridge itself only signs; its CLI never
// bundles this module).
import { createHmac, timingSafeEqual as equal } from 'node:crypto';
import { SIGNATURE_TOLERANCE_S, type SignedRequest, signedText } from './webhook-signature.js';

/**
 * Checks a delivery's signature header against the raw body and the request it came as (method, URL,
 * `svc-delivery`): true when the timestamp is within {@link SIGNATURE_TOLERANCE_S} of `now` and any one of
 * the header's `v1=` values matches (several appear while a secret is being replaced).
 *
 * @example
 * ```ts
 * const request = { method: req.method, url: 'https://hooks.example.com/svc', delivery: req.headers['svc-delivery'] };
 * if (!verifyWebhookSignature(secret, rawBody, req.headers['svc-signature'], request)) res.writeHead(401).end();
 * ```
 */
export function verifyWebhookSignature(
  secret: string,
  body: string,
  header: string | undefined | null,
  request: SignedRequest,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): boolean {
  if (!header) return false;
  const pairs = header.split(',').map((kv) => {
    const i = kv.indexOf('=');
    return [kv.slice(0, i).trim(), kv.slice(i + 1).trim()] as const;
  });
  const times = pairs.filter(([k]) => k === 't').map(([, v]) => v);
  const t = Number(times[0]);
  if (times.length !== 1 || !/^\d+$/.test(times[0]!) || Math.abs(nowSeconds - t) > SIGNATURE_TOLERANCE_S) {
    return false;
  }
  const expected = Buffer.from(
    createHmac('sha256', secret)
      .update(signedText(t, request, body))
      .digest('hex'),
    'utf8',
  );
  let ok = false;
  // Every v1 is compared (no early exit), in constant time each.
  for (const [k, v] of pairs) {
    if (k !== 'v1') continue;
    const given = Buffer.from(v, 'utf8');
    if (given.length === expected.length && equal(given, expected)) ok = true;
  }
  return ok;
}
