// Built thread pages kept while they hold (ADR 0216): a page's JSON text is reused only for the same person,
// thread and query, and only while the thread's page version (moved by the database on every write to what
// a page shows) is the one the page was built at.

import { createTextLru } from './text-lru.js';

/** What a page was built for: the account, the thread and the query. */
export interface PageKey {
  userId: string;
  agentId: string;
  limit: number;
  before: number | undefined;
}

/** A built page and what reading it again needs. */
export interface CachedPage {
  /** The thread's page version the rows were read at (read before the rows). */
  version: string;
  /** The page as JSON text. */
  text: string;
  /** The newest row's seq (0 for an empty page): a read of the newest page marks the thread read up to it. */
  newestSeq: number;
}

export interface ThreadPageCache {
  /** The page built for `key` at exactly `version`, else undefined (a stale entry is dropped). */
  get(key: PageKey, version: string | null): CachedPage | undefined;
  /** Keeps a page (ignored when it alone is over the character bound). */
  put(key: PageKey, page: CachedPage): void;
  readonly size: number;
}

export interface ThreadPageCacheOptions {
  /** Most pages kept (default 2,000). */
  maxEntries?: number;
  /** Most characters of page text kept (default 8 million, about 16 MB). */
  maxChars?: number;
}

const keyOf = (k: PageKey) => `${k.userId}\n${k.agentId}\n${k.limit}\n${k.before ?? ''}`;

/**
 * A bounded cache of built thread pages, least recently used dropped first.
 *
 * @example
 * ```ts
 * const pages = createThreadPageCache();
 * const hit = pages.get(key, state.pageVersion);
 * if (!hit) pages.put(key, { version, text, newestSeq });
 * ```
 */
export function createThreadPageCache(options: ThreadPageCacheOptions = {}): ThreadPageCache {
  const entries = createTextLru<CachedPage>(options.maxEntries ?? 2_000, options.maxChars ?? 8_000_000);
  return {
    get(key, version) {
      if (version === null) return undefined;
      const k = keyOf(key);
      const e = entries.get(k);
      if (e && e.version !== version) {
        entries.delete(k);
        return undefined;
      }
      return e;
    },
    put(key, page) {
      entries.set(keyOf(key), page);
    },
    get size() {
      return entries.size;
    },
  };
}
