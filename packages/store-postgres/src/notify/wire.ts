// The NOTIFY payload format: pure encoding and decoding, so its limits are tested without a server.
import type { ThreadEvent } from '@screen-service/registry/kernel';

/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; this leaves room for the envelope. */
export const MAX_INLINE_BYTES = 7900;

/** What travels on the channel: the sender instance and either the event or a row id holding it. */
export type WireMessage = { o: string; e: ThreadEvent } | { o: string; r: string };

/**
 * The payload for `event` from instance `origin`, or null when it must travel by reference. `n`, the event's
 * number on this instance, keeps two equal events apart: PostgreSQL delivers identical payloads sent in one
 * transaction (one batch of NOTIFYs) only once. Readers ignore it.
 */
export function encodeInline(origin: string, event: ThreadEvent, n?: number): string | null {
  const text = JSON.stringify(n === undefined ? { o: origin, e: event } : { o: origin, n, e: event });
  return Buffer.byteLength(text, 'utf8') < MAX_INLINE_BYTES ? text : null;
}

/** The payload naming row `id` of `svc_notify_payloads`. */
export function encodeReference(origin: string, id: string): string {
  return JSON.stringify({ o: origin, r: id });
}

/** Parses a payload; null for anything this version did not write (another service on the channel). */
export function decodeWire(payload: string | undefined): WireMessage | null {
  if (payload === undefined) return null;
  try {
    const v = JSON.parse(payload) as Record<string, unknown>;
    if (typeof v !== 'object' || v === null || typeof v.o !== 'string') return null;
    if (typeof v.r === 'string') return { o: v.o, r: v.r };
    const e = v.e as ThreadEvent | undefined;
    if (typeof e === 'object' && e !== null && typeof e.type === 'string' && typeof e.userId === 'string') {
      return { o: v.o, e };
    }
    return null;
  } catch {
    return null;
  }
}
