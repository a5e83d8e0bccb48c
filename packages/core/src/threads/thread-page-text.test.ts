// The thread page as JSON text: the same characters as JSON.stringify(page), and a screen view cache that
// serves a view only to the thread and row it was stored for.

import type { ConnectionPrincipal } from '@screen-service/registry/hosts';
import type { ScreenRecord } from '@screen-service/registry/model';
import { createTestCore, seedConnection, type TestCore } from '@screen-service/test-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newPageVersion } from './page-version.js';
import { createThreadPageCache, type ThreadPageCache } from './thread-page-cache.js';
import { createScreenViewCache, screenViewJson } from './thread-page-text.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const screen = (over: Partial<ScreenRecord> = {}): ScreenRecord => ({
  id: 'scr_1',
  userId: 'usr_a',
  agentId: 'agt_a',
  messageId: 'msg_1',
  messageSeq: 1,
  lines: 'choose@pick "Tea?" Yes|No',
  ops: [{ op: 'choose', id: 'pick', text: 'Tea? "quoted" \u2028 \ud83d\ude00' }],
  taps: [{ id: 'pick', preset: 'choose' }],
  createdAt: 0,
  ...over,
});

describe('createScreenViewCache', () => {
  it('serves a view only to the account, agent and row it was stored for', () => {
    const cache = createScreenViewCache();
    const text = cache.put(screen());
    expect(text).toBe(screenViewJson(screen()));
    expect(JSON.parse(text)).toEqual({
      id: 'scr_1',
      lines: screen().lines,
      ops: screen().ops,
      tap_ids: ['pick'],
    });
    const owner = { userId: 'usr_a', agentId: 'agt_a', messageId: 'msg_1' };
    expect(cache.get('scr_1', owner)).toBe(text);
    expect(cache.get('scr_1', { ...owner, userId: 'usr_b' })).toBeUndefined();
    expect(cache.get('scr_1', { ...owner, agentId: 'agt_b' })).toBeUndefined();
    expect(cache.get('scr_1', { ...owner, messageId: 'msg_2' })).toBeUndefined();
    expect(cache.get('scr_2', owner)).toBeUndefined();
  });

  it('a put replaces the entry, forget drops it, and the least recently used goes first past the bounds', () => {
    const cache = createScreenViewCache({ maxEntries: 2 });
    const owner = (n: number) => ({ userId: 'usr_a', agentId: 'agt_a', messageId: `msg_${n}` });
    const put = (n: number, lines = `timer ${n}m Tea`) =>
      cache.put(screen({ id: `scr_${n}`, messageId: `msg_${n}`, lines }));
    put(1);
    put(2);
    expect(cache.get('scr_1', owner(1))).toBeDefined(); // 1 is now the most recently used
    put(3);
    expect(cache.size).toBe(2);
    expect(cache.get('scr_2', owner(2))).toBeUndefined();
    expect(cache.get('scr_1', owner(1))).toBeDefined();
    put(1, 'timer 9m Other');
    expect(JSON.parse(cache.get('scr_1', owner(1))!).lines).toBe('timer 9m Other');
    cache.forget('scr_1');
    expect(cache.get('scr_1', owner(1))).toBeUndefined();
    expect(cache.size).toBe(1);

    const small = createScreenViewCache({ maxChars: 2 * screenViewJson(screen()).length });
    for (const n of [1, 2, 3]) small.put(screen({ id: `scr_${n}` }));
    expect(small.size).toBe(2);
    // A view larger than the whole budget is answered but not kept.
    const huge = createScreenViewCache({ maxChars: 10 });
    expect(huge.put(screen())).toBe(screenViewJson(screen()));
    expect(huge.size).toBe(0);
  });
});

describe('pageText', () => {
  let core: TestCore;
  let userId: string;
  let agentId: string;
  let host: ConnectionPrincipal;
  beforeEach(async () => {
    core = createTestCore({ seed: 3 });
    userId = (await core.accounts.signUp({ email: 'a@example.com', password: 'a long password' })).user.id;
    const c = await seedConnection(core.store, userId, ['main']);
    host = await core.connectionAuth.verify(c.token);
    agentId = c.agents[0]!.id;
  });
  afterEach(() => core.close());

  const fill = async () => {
    for (let i = 0; i < 6; i++) {
      core.advance(i % 2 === 0 ? 999 : 86_400_000);
      await core.threadOps.say(host, {
        text: `Line ${i} with "quotes", \\ and \u2028 and emoji \ud83d\ude00`,
      });
      await core.threadOps.show(host, { lines: `choose@pick "Question ${i}?" Yes|No\ntimer 5m Break` });
    }
    const page = await core.threads.page(userId, agentId);
    const last = page.messages.at(-1)!;
    await core.threads.tap(userId, agentId, {
      screen_id: last.screen!.id,
      event: { id: 'pick', value: 'Yes' },
    });
    const photo = await core.photos.upload(userId, agentId, { contentType: 'image/png', bytes: PNG });
    await core.threads.say(userId, agentId, { text: 'with a photo', photo_ids: [photo.id] });
    await core.threadOps.answers(host, { agent: 'main' }); // handled_at on the person's rows
  };

  it('is JSON.stringify of page, newest page and older pages, with the cache cold and warm', async () => {
    await fill();
    // The first read marks rows delivered; both reads after it see the same rows.
    const first = await core.threads.pageText(userId, agentId);
    expect(JSON.parse(first).messages.length).toBeGreaterThan(10);
    for (const query of [{}, { limit: 5 }, { limit: 3, before: 8 }, { limit: 100 }, { before: 2 }]) {
      const text = await core.threads.pageText(userId, agentId, query);
      expect(text).toBe(JSON.stringify(await core.threads.page(userId, agentId, query)));
      // Warm: every screen view now comes from the cache.
      expect(await core.threads.pageText(userId, agentId, query)).toBe(text);
    }
    const full = JSON.parse(await core.threads.pageText(userId, agentId, { limit: 100 }));
    expect(full.messages.some((m: { photos: string[] }) => m.photos.length === 1)).toBe(true);
    expect(full.messages.some((m: { handled_at: string | null }) => m.handled_at !== null)).toBe(true);
    expect(full.messages.some((m: { delivered_at: string | null }) => m.delivered_at !== null)).toBe(true);
    expect(full.messages.filter((m: { screen: unknown }) => m.screen !== null)).toHaveLength(6);
  });

  it('an empty thread and a refused thread answer as page does', async () => {
    expect(await core.threads.pageText(userId, agentId)).toBe('{"messages":[],"next_before":null}');
    const other = (await core.accounts.signUp({ email: 'b@example.com', password: 'a long password' })).user;
    await expect(core.threads.pageText(other.id, agentId)).rejects.toMatchObject({ code: 'AGENT_NOT_FOUND' });
    await expect(core.threads.pageText(userId, agentId, { limit: 0 })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });

  it("one account's cached screen views never reach another's page", async () => {
    await fill();
    const shared = createScreenViewCache();
    const { createPersonThreads } = await import('./person-threads.js');
    const deps = { store: core.store, notifier: core.notifier, screenViews: shared };
    const threads = createPersonThreads(deps);
    const mine = JSON.parse(await threads.pageText(userId, agentId, { limit: 100 }));
    expect(shared.size).toBe(6);
    // Another account with its own agent and screens, reading through the same cache.
    const b = (await core.accounts.signUp({ email: 'b@example.com', password: 'a long password' })).user.id;
    const cb = await seedConnection(core.store, b, ['main']);
    const hostB = await core.connectionAuth.verify(cb.token);
    await core.threadOps.show(hostB, { lines: 'timer 1m Theirs' });
    const theirs = JSON.parse(await threads.pageText(b, cb.agents[0]!.id));
    expect(theirs.messages).toHaveLength(1);
    expect(theirs.messages[0].screen.lines).toBe('timer 1m Theirs');
    const myScreens = new Set(
      mine.messages.flatMap((m: { screen: { id: string } | null }) => m.screen?.id ?? []),
    );
    expect(myScreens.has(theirs.messages[0].screen.id)).toBe(false);
    // A lookup of my screen for their account misses, whatever row it names.
    for (const id of myScreens) {
      expect(
        shared.get(id as string, { userId: b, agentId: cb.agents[0]!.id, messageId: 'x' }),
      ).toBeUndefined();
    }
    // The agent deleted: its rows (and screens) go; a new page does not bring a cached view back.
    await core.deleteAgent(userId, agentId);
    await expect(threads.pageText(userId, agentId)).rejects.toMatchObject({ code: 'AGENT_NOT_FOUND' });
  });

  it('say and tap answer the row as the page shows it, with and without photos (ADR 0214)', async () => {
    const shown = await core.threadOps.show(host, { lines: 'choose@pick "Tea?" Yes|No' });
    const photo = await core.photos.upload(userId, agentId, { contentType: 'image/png', bytes: PNG });
    const said = [
      await core.threads.say(userId, agentId, { text: 'plain' }),
      await core.threads.say(userId, agentId, { text: 'with a photo', photo_ids: [photo.id] }),
    ];
    const snap = await core.photos.upload(userId, agentId, { contentType: 'image/png', bytes: PNG });
    const tapped = [
      (
        await core.threads.tap(userId, agentId, {
          screen_id: shown.screen_id,
          event: { id: 'pick', value: 'Yes' },
        })
      ).message,
      (
        await core.threads.tap(userId, agentId, {
          screen_id: shown.screen_id,
          event: { id: 'pick', value: 'No' },
          photo_ids: [snap.id],
        })
      ).message,
    ];
    expect(said[1]!.photos).toHaveLength(1);
    expect(tapped[1]!.photos).toHaveLength(1);
    const page = await core.threads.page(userId, agentId);
    for (const answered of [...said, ...tapped]) {
      expect(page.messages.find((m) => m.id === answered.id)).toEqual(answered);
    }
  });

  it('a kept page is answered again only while nothing it shows has changed (ADR 0216)', async () => {
    const { createPersonThreads } = await import('./person-threads.js');
    const inner = createThreadPageCache();
    let hits = 0;
    const pages: ThreadPageCache = {
      get: (key, version) => {
        const e = inner.get(key, version);
        if (e) hits++;
        return e;
      },
      put: (key, page) => inner.put(key, page),
      get size() {
        return inner.size;
      },
    };
    const threads = createPersonThreads({
      store: core.store,
      notifier: core.notifier,
      photoLinks: (p) => core.photoLinks.sign(p),
      pages,
    });
    // An older page never marks anything read, so the cached and the fresh reads see the same rows.
    const all = { before: 1_000_000, limit: 100 };
    const same = async (what: string) => {
      const text = await threads.pageText(userId, agentId, all);
      expect(text, what).toBe(JSON.stringify(await core.threads.page(userId, agentId, all)));
      const before = hits;
      expect(await threads.pageText(userId, agentId, all), `${what} (again)`).toBe(text);
      expect(hits, `${what}: the second read is answered from the kept page`).toBe(before + 1);
    };
    const shown = await core.threadOps.show(host, { lines: 'choose@pick "Tea?" Yes|No' });
    // The thread's state row (where its version lives) comes with its first read mark.
    await threads.pageText(userId, agentId);
    await same('a screen');
    await core.threadOps.say(host, { text: 'An agent line' });
    await same('an agent line');
    await threads.tap(userId, agentId, { screen_id: shown.screen_id, event: { id: 'pick', value: 'Yes' } });
    await same('a tap');
    await threads.say(userId, agentId, { text: 'A typed reply' });
    await same('a typed reply');
    await core.threadOps.answers(host, { agent: 'main' });
    await same('answers claimed (handled)');
    await threads.pageText(userId, agentId); // the newest page marks the agent rows delivered
    await same('delivered');
    expect(JSON.parse(await threads.pageText(userId, agentId, all)).messages[0].delivered_at).not.toBeNull();
    await core.store.housekeeping.trimThreads(2, newPageVersion());
    await same('older rows trimmed');
    expect(JSON.parse(await threads.pageText(userId, agentId, all)).messages).toHaveLength(2);
    // A page with photos is built on every read (its links carry an expiry from the time of reading).
    const photo = await core.photos.upload(userId, agentId, { contentType: 'image/png', bytes: PNG });
    await threads.say(userId, agentId, { text: 'with a photo', photo_ids: [photo.id] });
    const before = hits;
    const withPhoto = JSON.parse(await threads.pageText(userId, agentId, all));
    expect(withPhoto.messages.at(-1).photos).toHaveLength(1);
    core.advance(60_000);
    const later = JSON.parse(await threads.pageText(userId, agentId, all));
    expect(later.messages.at(-1).photos[0]).not.toBe(withPhoto.messages.at(-1).photos[0]);
    expect(hits).toBe(before);
  });

  it('a kept page reaches no other account, thread or query', async () => {
    const { createPersonThreads } = await import('./person-threads.js');
    const pages = createThreadPageCache();
    const threads = createPersonThreads({ store: core.store, notifier: core.notifier, pages });
    await core.threadOps.say(host, { text: 'Mine' });
    await threads.pageText(userId, agentId); // marks it read (and delivered): the version moves
    const mine = await threads.pageText(userId, agentId);
    expect(pages.size).toBe(1);
    const b = (await core.accounts.signUp({ email: 'b@example.com', password: 'a long password' })).user.id;
    await expect(threads.pageText(b, agentId)).rejects.toMatchObject({ code: 'AGENT_NOT_FOUND' });
    const cb = await seedConnection(core.store, b, ['main']);
    expect(await threads.pageText(b, cb.agents[0]!.id)).toBe('{"messages":[],"next_before":null}');
    expect(await threads.pageText(userId, agentId, { limit: 1 })).not.toBe(mine);
    // Kept: my two queries; not b's empty thread (no message yet, so no page version).
    expect(pages.size).toBe(2);
  });
});
