// The person's side of a thread: read pages, send typed text, tap a component (the same event path as an
// in-chat tap), attach photos, mark the thread open or closed (presence).

import { PRESENCE_TTL_MS } from '@screen-service/push';
import type { ReceiptWho } from '@screen-service/receipts';
import { hasMention, isOwnerOnlyTap, threadAccess } from '@screen-service/registry/agents';
import { newId as defaultNewId, ServiceError, systemRandom } from '@screen-service/registry/kernel';
import type { MessageRecord, PhotoRecord } from '@screen-service/registry/model';
import { requireText } from '@screen-service/screen-rules';
import { writeOnce } from './answer-keys.js';
import { createThreadCore, type ThreadDeps } from './thread-core.js';
import { MAX_TEXT_CHARS } from './thread-ops.js';
import { createThreadPageCache, type ThreadPageCache } from './thread-page-cache.js';
import { createScreenViewCache, type ScreenViewCache } from './thread-page-text.js';
import { createThreadPages } from './thread-pages.js';

export { MAX_PAGE } from './thread-pages.js';
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
  say(
    userId: string,
    agentId: string,
    input: { text: unknown; photo_ids?: unknown; idempotency_key?: unknown },
  ): Promise<MessageView>;
  tap(
    userId: string,
    agentId: string,
    input: { screen_id: unknown; event: unknown; photo_ids?: unknown; idempotency_key?: unknown },
    /** The sign-in (and device) the tap came through, named in its receipt (ADR 0261). */
    who?: ReceiptWho,
  ): Promise<{ message: MessageView; line: string; echo: string }>;
  /**
   * Holds the thread open on one device for {@link PRESENCE_TTL_MS} (the app renews it while the thread is
   * on screen) or closes it there. No buzz goes out while any device holds it open.
   */
  setPresence(userId: string, agentId: string, open: unknown, device?: unknown): Promise<{ open: boolean }>;
  /** This person's receipts in the thread as JSON Lines, each with its answer as stored now (ADR 0261). */
  receipts(userId: string, agentId: string): Promise<string>;
  markRead(userId: string, agentId: string, seq: unknown): Promise<void>;
  /** Records a stored photo file for a later answer in this thread. */
  addPhoto(
    userId: string,
    agentId: string,
    file: {
      file: string;
      contentType: string;
      bytes: number;
      width?: number | null;
      height?: number | null;
      /** The upload's idempotency key (ADR 0287); the store keeps one photo per person and key. */
      idemKey?: string | null;
    },
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
        { field: 'photo_ids' },
      );
    }
    for (const id of value as string[]) {
      const p = await store.photos.get(id);
      if (!p || p.userId !== userId || p.agentId !== agentId || p.messageId !== null) {
        throw new ServiceError(
          'INVALID_INPUT',
          `Photo ${id} is not an unsent photo of this thread; upload it first.`,
          { field: 'photo_ids' },
        );
      }
    }
    return value as string[];
  }

  const reader = createThreadPages({
    store,
    core,
    screenViews,
    pages,
    photoLinks: deps.photoLinks,
    own,
  });
  const { views } = reader;
  const view = async (m: MessageRecord) => (await views([m], m.meta.photos === undefined))[0]!;

  return {
    page: reader.page,
    pageText: reader.pageText,

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
      return writeOnce(
        store,
        { userId, agentId, kind: 'text', key: input.idempotency_key },
        async (key) => {
          const ids = await photoIds(userId, agentId, input.photo_ids);
          return view(await core.appendPersonText(userId, agentId, text, ids, key));
        },
        view,
      );
    },

    async tap(userId, agentId, input, who) {
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
      // doc2: owner-only features tapped by a holder are ignored: recorded handled, never sent to the host.
      const tapped = input.event as { id?: unknown } | null;
      const target = screen.taps.find((t) => t.id === tapped?.id);
      const ignored = grant !== null && target !== undefined && isOwnerOnlyTap(target);
      const result = async (m: MessageRecord) => {
        return { message: await view(m), line: m.body, echo: String(m.meta.echo ?? '') };
      };
      return writeOnce(
        store,
        { userId, agentId, kind: 'tap', key: input.idempotency_key },
        async (key) => {
          const ids = await photoIds(userId, agentId, input.photo_ids);
          const w = await core.recordTap(screen, input.event, {
            via: 'app',
            handled: ignored,
            photoIds: ids,
            // The device is the app's own id for itself (the one presence names), checked as presence checks it.
            ...(who ? { who: { ...who, device: who.device == null ? null : deviceId(who.device) } } : {}),
            ...(key ? { idemKey: key } : {}),
          });
          return result(w.message);
        },
        result,
      );
    },

    async receipts(userId, agentId) {
      await own(userId, agentId);
      return deps.receipts ? deps.receipts.exportThread({ agentId, userId }) : '';
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
        idemKey: file.idemKey ?? null,
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
