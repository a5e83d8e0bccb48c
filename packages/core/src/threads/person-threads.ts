// The person's side of a thread: read pages, send typed text, tap a component (the same event path as an
// in-chat tap), attach photos, mark the thread open or closed (presence).

import { hasMention, isOwnerOnlyTap, threadAccess } from '@screen-service/registry/agents';
import {
  newId as defaultNewId,
  isoTime,
  isoTimeOrNull,
  ServiceError,
  systemRandom,
} from '@screen-service/registry/kernel';
import type {
  MessageRecord,
  PhotoRecord,
  ThreadKey,
  ThreadStateRecord,
} from '@screen-service/registry/model';
import { PRESENCE_TTL_MS } from '../push/push-rules.js';
import { createThreadCore, type ThreadDeps } from './thread-core.js';
import { MAX_TEXT_CHARS, requireText } from './thread-ops.js';
import { createThreadPageCache, type ThreadPageCache } from './thread-page-cache.js';
import { createScreenViewCache, messageViewJson, type ScreenViewCache } from './thread-page-text.js';

export const MAX_PAGE = 100;
export const MAX_PHOTOS_PER_ANSWER = 8;

/** A thread row as the person's app reads it. */
export interface MessageView {
  id: string;
  seq: number;
  sender: MessageRecord['sender'];
  kind: MessageRecord['kind'];
  body: string;
  meta: Record<string, unknown>;
  screen: { id: string; lines: string; ops: unknown[]; tap_ids: string[] } | null;
  photos: string[];
  created_at: string;
  delivered_at: string | null;
  handled_at: string | null;
}

export interface ThreadPage {
  /** Oldest first within the page. */
  messages: MessageView[];
  /** Pass as `before` for the next older page; null at the start of the thread. */
  next_before: number | null;
}

export interface PersonThreads {
  /** Newest page when `before` is absent (which also marks the thread read and delivered). */
  page(userId: string, agentId: string, query?: { before?: number; limit?: number }): Promise<ThreadPage>;
  /**
   * {@link page} as JSON text, character for character `JSON.stringify` of what `page` answers (ADR 0212):
   * built from serialized pieces, each screen's view from a bounded cache, so an HTTP answer needs neither
   * the objects nor a serialization of them. A page built before is answered again while the thread's page
   * version has not moved (ADR 0216; pages with photos are always built: their links expire).
   */
  pageText(userId: string, agentId: string, query?: { before?: number; limit?: number }): Promise<string>;
  say(userId: string, agentId: string, input: { text: unknown; photo_ids?: unknown }): Promise<MessageView>;
  tap(
    userId: string,
    agentId: string,
    input: { screen_id: unknown; event: unknown; photo_ids?: unknown },
  ): Promise<{ message: MessageView; line: string; echo: string }>;
  /**
   * Holds the thread open on one device for {@link PRESENCE_TTL_MS} (the app renews it while the thread is
   * on screen) or closes it there. No buzz goes out while any device holds it open.
   */
  setPresence(userId: string, agentId: string, open: unknown, device?: unknown): Promise<{ open: boolean }>;
  markRead(userId: string, agentId: string, seq: unknown): Promise<void>;
  /** Records a stored photo file for a later answer in this thread. */
  addPhoto(
    userId: string,
    agentId: string,
    file: { file: string; contentType: string; bytes: number; width?: number | null; height?: number | null },
  ): Promise<PhotoRecord>;
  /** A photo of this user (for serving its file), or null. */
  photo(userId: string, photoId: string): Promise<PhotoRecord | null>;
}

/**
 * @example
 * ```ts
 * const threads = createPersonThreads({ store, notifier, screenLines, photoLinks });
 * const { messages } = await threads.page(userId, agentId);
 * await threads.tap(userId, agentId, { screen_id, event: { id: 'lunch', value: 'Pasta' } });
 * ```
 */
export function createPersonThreads(
  deps: ThreadDeps & { screenViews?: ScreenViewCache; pages?: ThreadPageCache },
): PersonThreads {
  const { store, notifier } = deps;
  const screenViews = deps.screenViews ?? createScreenViewCache();
  const pages = deps.pages ?? createThreadPageCache();
  const core = createThreadCore(deps);
  const newId = deps.newId ?? ((prefix: string) => defaultNewId(prefix, deps.random ?? systemRandom));

  // The owner's thread, or a grant holder's own thread of the agent (keyed by (agent, holder)).
  const own = (userId: string, agentId: string) => threadAccess(store, userId, agentId);

  async function photoIds(userId: string, agentId: string, value: unknown): Promise<string[]> {
    if (value === undefined || value === null) return [];
    if (
      !Array.isArray(value) ||
      value.length > MAX_PHOTOS_PER_ANSWER ||
      value.some((v) => typeof v !== 'string')
    ) {
      throw new ServiceError(
        'INVALID_INPUT',
        `photo_ids must be a list of at most ${MAX_PHOTOS_PER_ANSWER} photo ids.`,
        {
          field: 'photo_ids',
        },
      );
    }
    for (const id of value as string[]) {
      const p = await store.photos.get(id);
      if (!p || p.userId !== userId || p.agentId !== agentId || p.messageId !== null) {
        throw new ServiceError(
          'INVALID_INPUT',
          `Photo ${id} is not an unsent photo of this thread; upload it first.`,
          {
            field: 'photo_ids',
          },
        );
      }
    }
    return value as string[];
  }

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
    async page(userId, agentId, query = {}) {
      await own(userId, agentId);
      const key = { agentId, userId };
      const q = pageQuery(query);
      const { rows, nextBefore } = await loadPage(key, q, await store.threads.getState(key));
      return { messages: await views(rows), next_before: nextBefore };
    },

    async pageText(userId, agentId, query = {}) {
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

    async say(userId, agentId, input) {
      const { grant } = await own(userId, agentId);
      const text = requireText(input.text, 'text', MAX_TEXT_CHARS);
      if (grant && hasMention(text)) {
        throw new ServiceError(
          'NOT_IN_A_SHARED_THREAD',
          'A shared thread takes no @mentions: write to the agent without naming another.',
          { field: 'text' },
        );
      }
      const ids = await photoIds(userId, agentId, input.photo_ids);
      const m = await core.appendPersonText(userId, agentId, text, ids);
      return (await views([m], ids.length === 0))[0]!;
    },

    async tap(userId, agentId, input) {
      const { grant } = await own(userId, agentId);
      if (typeof input.screen_id !== 'string') {
        throw new ServiceError('INVALID_INPUT', 'screen_id is required.', { field: 'screen_id' });
      }
      const screen = await store.threads.getScreen(input.screen_id);
      if (!screen || screen.userId !== userId || screen.agentId !== agentId) {
        throw new ServiceError('SCREEN_NOT_FOUND', `No screen ${input.screen_id} in this thread.`, {
          field: 'screen_id',
        });
      }
      const ids = await photoIds(userId, agentId, input.photo_ids);
      // doc2: owner-only features tapped by a holder are ignored: recorded handled, never sent to the host.
      const tapped = input.event as { id?: unknown } | null;
      const target = screen.taps.find((t) => t.id === tapped?.id);
      const ignored = grant !== null && target !== undefined && isOwnerOnlyTap(target);
      const w = await core.recordTap(screen, input.event, { via: 'app', handled: ignored, photoIds: ids });
      const view = (await views([w.message], ids.length === 0))[0]!;
      return { message: view, line: w.line, echo: w.echo };
    },

    async setPresence(userId, agentId, open, device) {
      await own(userId, agentId);
      if (typeof open !== 'boolean') {
        throw new ServiceError('INVALID_INPUT', 'open must be true or false.', { field: 'open' });
      }
      const key = { agentId, userId };
      const at = core.now();
      await store.push.setPresence(key, deviceId(device), open ? at + PRESENCE_TTL_MS : null);
      await store.threads.setOpen(key, open, at, core.pageVersion());
      return { open };
    },

    async markRead(userId, agentId, seq) {
      await own(userId, agentId);
      if (!Number.isInteger(seq) || (seq as number) < 0) {
        throw new ServiceError('INVALID_INPUT', 'seq must be a message seq.', { field: 'seq' });
      }
      await store.threads.markRead({ agentId, userId }, seq as number, core.pageVersion());
      notifier.publish({ type: 'read', userId, agentId, seq: seq as number });
    },

    async addPhoto(userId, agentId, file) {
      await own(userId, agentId);
      return store.photos.create({
        id: newId('pho_'),
        userId,
        agentId,
        messageId: null,
        file: file.file,
        contentType: file.contentType,
        bytes: file.bytes,
        width: file.width ?? null,
        height: file.height ?? null,
        createdAt: core.now(),
      });
    },

    async photo(userId, photoId) {
      const p = await store.photos.get(photoId);
      return p && p.userId === userId ? p : null;
    },
  };
}

const DEVICE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The app's device id (letters, digits, `_`, `-`; up to 64); `app` for callers that send none. */
export function deviceId(device: unknown): string {
  if (device === undefined || device === null) return 'app';
  if (typeof device !== 'string' || !DEVICE_ID.test(device)) {
    throw new ServiceError('INVALID_INPUT', 'device must be 1 to 64 letters, digits, "_" or "-".', {
      field: 'device',
    });
  }
  return device;
}
