// The person's thread pages: the newest page (which marks the thread read and delivered) and older ones by
// cursor, as records or as JSON text built from cached pieces (ADR 0212, 0216).

import { isoTime, isoTimeOrNull, ServiceError } from '@screen-service/registry/kernel';
import type { MessageRecord, Store, ThreadKey, ThreadStateRecord } from '@screen-service/registry/model';
import type { MessageView, ThreadPage } from './person-threads.js';
import type { ThreadCore, ThreadDeps } from './thread-core.js';
import type { ThreadPageCache } from './thread-page-cache.js';
import { messageViewJson, type ScreenViewCache } from './thread-page-text.js';

/** A page's cursor and size as the app sends them. */
type PageQuery = { before?: number; limit?: number };

/** The largest page a person's app may ask for. */
export const MAX_PAGE = 100;

/** What the page reader needs: the store, the thread core (clock, page versions), caches, and the access check. */
export interface ThreadPagesDeps {
  store: Store;
  core: Pick<ThreadCore, 'now' | 'pageVersion'>;
  screenViews: ScreenViewCache;
  pages: ThreadPageCache;
  photoLinks: ThreadDeps['photoLinks'];
  own(userId: string, agentId: string): Promise<unknown>;
}

/** The page reads of {@link PersonThreads} and the record-to-view mapping the writes answer with. */
export function createThreadPages(deps: ThreadPagesDeps) {
  const { store, core, screenViews, pages, own } = deps;

  /** The page query checked: `limit` 1 to {@link MAX_PAGE} (default 50), `before` a seq when present. */
  function pageQuery(query: { before?: number; limit?: number }): {
    limit: number;
    before: number | undefined;
  } {
    const limit = query.limit ?? 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) {
      throw new ServiceError('INVALID_INPUT', `limit must be a whole number from 1 to ${MAX_PAGE}.`, {
        field: 'limit',
      });
    }
    if (query.before !== undefined && (!Number.isInteger(query.before) || query.before < 1)) {
      throw new ServiceError('INVALID_INPUT', 'before must be a message seq from a previous page.', {
        field: 'before',
      });
    }
    return { limit, before: query.before };
  }

  /** Reading the newest page marks it read and delivered; the writes are skipped when nothing new arrived. */
  async function markSeen(key: ThreadKey, newestSeq: number, state: ThreadStateRecord): Promise<void> {
    if (newestSeq === 0 || state.readSeq >= newestSeq) return;
    // Two writes, as before ADR 0241: no decision joins them, and a transaction would add two round trips
    // on PostgreSQL to every page read that finds new rows.
    await store.threads.markDelivered(key, newestSeq, core.now(), core.pageVersion());
    await store.threads.markRead(key, newestSeq, core.pageVersion());
  }

  /** The rows of a page, oldest first (the newest page also marks the thread read and delivered). */
  async function loadPage(
    key: ThreadKey,
    q: { limit: number; before: number | undefined },
    state: ThreadStateRecord,
  ): Promise<{ rows: MessageRecord[]; nextBefore: number | null }> {
    const rows = await store.threads.page({
      ...key,
      limit: q.limit,
      ...(q.before ? { beforeSeq: q.before } : {}),
    });
    if (q.before === undefined) await markSeen(key, rows[0]?.seq ?? 0, state);
    const oldestFirst = rows.reverse();
    return { rows: oldestFirst, nextBefore: rows.length === q.limit ? oldestFirst[0]!.seq : null };
  }

  /** Each row's photo links, in the order views() lists them. */
  async function photoLinksByMessage(rows: MessageRecord[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    const photos = await store.photos.listByMessage(rows.map((r) => r.id));
    if (photos.length === 0) return out;
    const links = deps.photoLinks ? await deps.photoLinks(photos) : [];
    photos.forEach((p, i) => {
      const link = links[i];
      if (!link || p.messageId === null) return;
      const list = out.get(p.messageId);
      if (list) list.push(link);
      else out.set(p.messageId, [link]);
    });
    return out;
  }

  /**
   * `noPhotos`: the rows were written by this call with no photo ids, so none can be attached (photos are
   * attached only while their message is written): the photo query is skipped.
   */
  async function views(rows: MessageRecord[], noPhotos = false): Promise<MessageView[]> {
    const screenIds = [
      ...new Set(rows.filter((r) => r.kind === 'screen' && r.screenId).map((r) => r.screenId!)),
    ];
    const screens = new Map((await store.threads.listScreens(screenIds)).map((sc) => [sc.id, sc]));
    const photos = noPhotos ? [] : await store.photos.listByMessage(rows.map((r) => r.id));
    const links = deps.photoLinks && photos.length > 0 ? await deps.photoLinks(photos) : [];
    return rows.map((r) => {
      const s = r.kind === 'screen' && r.screenId ? screens.get(r.screenId) : undefined;
      return {
        id: r.id,
        seq: r.seq,
        sender: r.sender,
        kind: r.kind,
        body: r.body,
        meta: r.meta,
        screen: s ? { id: s.id, lines: s.lines, ops: s.ops, tap_ids: s.taps.map((t) => t.id) } : null,
        photos: photos.flatMap((p, i) => (p.messageId === r.id && links[i] ? [links[i]] : [])),
        created_at: isoTime(r.createdAt),
        delivered_at: isoTimeOrNull(r.deliveredAt),
        handled_at: isoTimeOrNull(r.handledAt),
      };
    });
  }

  return {
    views,
    async page(userId: string, agentId: string, query: PageQuery = {}): Promise<ThreadPage> {
      await own(userId, agentId);
      const key = { agentId, userId };
      const q = pageQuery(query);
      const { rows, nextBefore } = await loadPage(key, q, await store.threads.getState(key));
      return { messages: await views(rows), next_before: nextBefore };
    },

    async pageText(userId: string, agentId: string, query: PageQuery = {}): Promise<string> {
      await own(userId, agentId);
      const key = { agentId, userId };
      const q = pageQuery(query);
      // The version is read before the rows: a write landing between the two leaves a page newer than its
      // version, which the next read finds stale; never the other way round.
      const state = await store.threads.getState(key);
      const pageKey = { userId, agentId, limit: q.limit, before: q.before };
      const hit = pages.get(pageKey, state.pageVersion);
      if (hit) {
        if (q.before === undefined) await markSeen(key, hit.newestSeq, state);
        return hit.text;
      }
      const { rows, nextBefore } = await loadPage(key, q, state);
      const owner = { userId, agentId, messageId: '' };
      const screens = new Map<string, string>();
      const missing: string[] = [];
      for (const r of rows) {
        if (r.kind !== 'screen' || !r.screenId) continue;
        owner.messageId = r.id;
        const text = screenViews.get(r.screenId, owner);
        if (text === undefined) missing.push(r.screenId);
        else screens.set(r.screenId, text);
      }
      if (missing.length > 0) {
        for (const sc of await store.threads.listScreens(missing)) {
          // Only a screen of this thread is shown (and cached), as views() does by its lookup.
          if (sc.userId === userId && sc.agentId === agentId) screens.set(sc.id, screenViews.put(sc));
        }
      }
      const photos = await photoLinksByMessage(rows);
      let out = '{"messages":[';
      rows.forEach((r, i) => {
        const screen = r.kind === 'screen' && r.screenId ? (screens.get(r.screenId) ?? 'null') : 'null';
        const links = photos.get(r.id);
        out += `${i > 0 ? ',' : ''}${messageViewJson(r, screen, links ? JSON.stringify(links) : '[]')}`;
      });
      const text = `${out}],"next_before":${nextBefore === null ? 'null' : nextBefore}}`;
      // A page with photos is not kept: its links are signed with an expiry from the time of reading.
      if (state.pageVersion !== null && photos.size === 0) {
        pages.put(pageKey, { version: state.pageVersion, text, newestSeq: rows.at(-1)?.seq ?? 0 });
      }
      return text;
    },
  };
}
