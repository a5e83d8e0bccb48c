// A bounded map of serialized texts, least recently used dropped first: the shared core of the thread page's
// caches (screen views, kept pages).

/** Entries by key, bounded by count and by the characters of their `text`. */
export interface TextLru<E extends { text: string }> {
  /** The entry, now the most recently used; undefined when absent. */
  get(key: string): E | undefined;
  /** Keeps `entry` (replacing any under `key`), then drops the least recently used past the bounds; an entry larger than all of them is not kept. */
  set(key: string, entry: E): void;
  delete(key: string): void;
  readonly size: number;
}

/**
 * @example
 * ```ts
 * const lru = createTextLru<{ text: string }>(1000, 1_000_000);
 * lru.set('k', { text: '{}' });
 * lru.get('k')?.text; // '{}'
 * ```
 */
export function createTextLru<E extends { text: string }>(maxEntries: number, maxChars: number): TextLru<E> {
  // A Map keeps insertion order: re-inserting on a hit makes its first key the least recently used.
  const entries = new Map<string, E>();
  let chars = 0;
  const drop = (key: string) => {
    const e = entries.get(key);
    if (!e) return;
    entries.delete(key);
    chars -= e.text.length;
  };
  return {
    get(key) {
      const e = entries.get(key);
      if (e) {
        entries.delete(key);
        entries.set(key, e);
      }
      return e;
    },
    set(key, entry) {
      drop(key);
      if (entry.text.length > maxChars) return;
      entries.set(key, entry);
      chars += entry.text.length;
      while (entries.size > maxEntries || chars > maxChars) drop(entries.keys().next().value as string);
    },
    delete: drop,
    get size() {
      return entries.size;
    },
  };
}
