// The kept-page cache: a page only for its own key and version, bounded by entries and characters.
import { describe, expect, it } from 'vitest';
import { createThreadPageCache, type PageKey } from './thread-page-cache.js';

const key = (over: Partial<PageKey> = {}): PageKey => ({
  userId: 'usr_a',
  agentId: 'agt_a',
  limit: 50,
  before: undefined,
  ...over,
});
const page = (version: number, text = `{"v":${version}}`) => ({
  version: String(version),
  text,
  newestSeq: 7,
});

describe('createThreadPageCache', () => {
  it('answers a page only for its own account, thread, query and version', () => {
    const pages = createThreadPageCache();
    pages.put(key(), page(1));
    expect(pages.get(key(), '1')?.text).toBe('{"v":1}');
    expect(pages.get(key({ userId: 'usr_b' }), '1')).toBeUndefined();
    expect(pages.get(key({ agentId: 'agt_b' }), '1')).toBeUndefined();
    expect(pages.get(key({ limit: 49 }), '1')).toBeUndefined();
    expect(pages.get(key({ before: 9 }), '1')).toBeUndefined();
    expect(pages.get(key(), null)).toBeUndefined();
    // Another version: a miss, and the stale entry is dropped.
    expect(pages.get(key(), '2')).toBeUndefined();
    expect(pages.size).toBe(0);
    expect(pages.get(key(), '1')).toBeUndefined();
  });

  it('drops the least recently used past its bounds and keeps no page larger than all of them', () => {
    const pages = createThreadPageCache({ maxEntries: 2 });
    pages.put(key({ limit: 1 }), page(1));
    pages.put(key({ limit: 2 }), page(1));
    expect(pages.get(key({ limit: 1 }), '1')).toBeDefined(); // now the most recently used
    pages.put(key({ limit: 3 }), page(1));
    expect(pages.size).toBe(2);
    expect(pages.get(key({ limit: 2 }), '1')).toBeUndefined();
    expect(pages.get(key({ limit: 1 }), '1')).toBeDefined();

    const small = createThreadPageCache({ maxChars: 25 });
    small.put(key({ limit: 1 }), page(1, 'x'.repeat(10)));
    small.put(key({ limit: 2 }), page(1, 'y'.repeat(10)));
    small.put(key({ limit: 3 }), page(1, 'z'.repeat(10)));
    expect(small.size).toBe(2);
    expect(small.get(key({ limit: 1 }), '1')).toBeUndefined();
    small.put(key({ limit: 4 }), page(1, 'w'.repeat(26)));
    expect(small.get(key({ limit: 4 }), '1')).toBeUndefined();
    // A put over an existing key replaces it (its characters counted once).
    small.put(key({ limit: 2 }), page(2, 'y'.repeat(12)));
    expect(small.get(key({ limit: 2 }), '2')?.text).toBe('y'.repeat(12));
    expect(small.get(key({ limit: 3 }), '1')?.text).toBe('z'.repeat(10));
  });
});
