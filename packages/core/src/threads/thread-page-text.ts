// The person's thread page as JSON text built from pieces (ADR 0212): each row's fields serialized in the
// view's key order, each screen's view taken ready-serialized from a bounded cache.

import { isoTime, isoTimeOrNull } from '@screen-service/registry/kernel';
import type { MessageRecord, ScreenRecord } from '@screen-service/registry/model';
import { createTextLru } from './text-lru.js';

/** Where a cached screen view may be used: the thread and the row that shows it. */
export interface ScreenOwner {
  userId: string;
  agentId: string;
  messageId: string;
}

/**
 * Serialized screen views (`{"id","lines","ops","tap_ids"}`) by screen id, least recently used dropped first.
 * A screen row never changes after it is written (no UPDATE of `screens` anywhere; it goes only with its
 * message), so an entry stays right for as long as its screen exists. An entry is handed out only to the
 * thread and row it was stored for: a lookup from any other account, agent or message misses.
 */
export interface ScreenViewCache {
  /** The serialized view of `screenId` if cached for exactly this owner, else undefined. */
  get(screenId: string, owner: ScreenOwner): string | undefined;
  /** Serializes `screen`'s view, remembers it for the screen's own thread and row, and returns it. */
  put(screen: ScreenRecord): string;
  /** Drops one screen's entry (nothing changes screens today; here so a future change can). */
  forget(screenId: string): void;
  readonly size: number;
}

export interface ScreenViewCacheOptions {
  /** Most views kept (default 5,000). */
  maxEntries?: number;
  /** Most characters of serialized views kept (default 16 million, about 32 MB). */
  maxChars?: number;
}

interface Entry extends ScreenOwner {
  text: string;
}

/**
 * The JSON of a screen as the thread page shows it: `JSON.stringify({ id, lines, ops, tap_ids })`.
 *
 * @example
 * ```ts
 * screenViewJson(screen); // '{"id":"scr_...","lines":"...","ops":[...],"tap_ids":["pick"]}'
 * ```
 */
export function screenViewJson(s: ScreenRecord): string {
  return JSON.stringify({ id: s.id, lines: s.lines, ops: s.ops, tap_ids: s.taps.map((t) => t.id) });
}

/**
 * A bounded cache of serialized screen views, checked against the owner on every lookup.
 *
 * @example
 * ```ts
 * const cache = createScreenViewCache({ maxEntries: 1000 });
 * const text = cache.get(id, { userId, agentId, messageId }) ?? cache.put(screen);
 * ```
 */
export function createScreenViewCache(options: ScreenViewCacheOptions = {}): ScreenViewCache {
  const entries = createTextLru<Entry>(options.maxEntries ?? 5_000, options.maxChars ?? 16_000_000);
  return {
    get(screenId, owner) {
      const e = entries.get(screenId);
      if (!e || e.userId !== owner.userId || e.agentId !== owner.agentId || e.messageId !== owner.messageId) {
        return undefined;
      }
      return e.text;
    },
    put(screen) {
      const text = screenViewJson(screen);
      entries.set(screen.id, {
        userId: screen.userId,
        agentId: screen.agentId,
        messageId: screen.messageId,
        text,
      });
      return text;
    },
    forget: (id) => entries.delete(id),
    get size() {
      return entries.size;
    },
  };
}

/**
 * One row of the page as JSON, the same text as `JSON.stringify` of its `MessageView`: `screen` and `photos`
 * come already serialized (`'null'` for no screen).
 *
 * @example
 * ```ts
 * messageViewJson(row, cache.get(row.screenId, owner) ?? 'null', '[]');
 * ```
 */
export function messageViewJson(r: MessageRecord, screen: string, photos: string): string {
  return (
    `{"id":${JSON.stringify(r.id)},"seq":${JSON.stringify(r.seq)},"sender":${JSON.stringify(r.sender)}` +
    `,"kind":${JSON.stringify(r.kind)},"body":${JSON.stringify(r.body)},"meta":${JSON.stringify(r.meta)}` +
    `,"screen":${screen},"photos":${photos},"created_at":"${isoTime(r.createdAt)}"` +
    `,"delivered_at":${quoteOrNull(isoTimeOrNull(r.deliveredAt))},"handled_at":${quoteOrNull(isoTimeOrNull(r.handledAt))}}`
  );
}

// ISO times hold no character JSON escapes, so quoting is enough.
const quoteOrNull = (s: string | null) => (s === null ? 'null' : `"${s}"`);
