// Conformance cases: thread rows, screens, read and delivery marks, the page version, photos.
import { newId } from '@screen-service/registry/kernel';
import { expect } from 'vitest';
import { type ConformanceCase, conformanceCase as c } from './cases.js';
import { fixtures } from './fixtures.js';

export const threadCases: ConformanceCase[] = [
  c(
    ['threads.claimAnswers', 'threads.countUnhandled'],
    'claimAnswers returns person rows oldest first after a seq, each once',
    async (store) => {
      const f = fixtures(store);
      const u = await f.user();
      const a = await f.agent(u.id, 'a');
      const key = { agentId: a.id, userId: u.id };
      const write = (sender: 'agent' | 'person', body: string) =>
        store.threads.append(f.message(key, sender, body));
      const p1 = await write('person', 'p1');
      await write('agent', 'a1');
      await write('person', 'p2');
      await write('person', 'p3');
      expect(await store.threads.countUnhandled(key)).toBe(3);
      const claim = (afterSeq: number, limit = 10) =>
        store.threads.claimAnswers({ ...key, afterSeq, limit, at: 5 });
      const [x, y] = await Promise.all([claim(p1.seq, 1), claim(p1.seq, 1)]);
      expect([...x!, ...y!].map((m) => m.body).sort()).toEqual(['p2', 'p3']);
      expect((await claim(0)).map((m) => m.body)).toEqual(['p1']);
      expect(await claim(0)).toEqual([]);
      expect(await store.threads.countUnhandled(key)).toBe(0);
    },
  ),
  c(
    ['threads.unreadByAgent', 'threads.markRead', 'threads.page'],
    'unread counts agent rows after the read mark; pages go newest first',
    async (store) => {
      const f = fixtures(store);
      const u = await f.user();
      const a = await f.agent(u.id, 'a');
      const key = { agentId: a.id, userId: u.id };
      const rows = [];
      for (const body of ['1', '2', '3'])
        rows.push(await store.threads.append(f.message(key, 'agent', body)));
      expect((await store.threads.unreadByAgent(u.id)).get(a.id)).toBe(3);
      await store.threads.markRead(key, rows[1]!.seq);
      await store.threads.markRead(key, rows[0]!.seq); // never moves back
      expect((await store.threads.unreadByAgent(u.id)).get(a.id)).toBe(1);
      expect((await store.threads.page({ ...key, limit: 2 })).map((m) => m.body)).toEqual(['3', '2']);
      expect(
        (await store.threads.page({ ...key, limit: 2, beforeSeq: rows[1]!.seq })).map((m) => m.body),
      ).toEqual(['1']);
    },
  ),
  c(
    [
      'threads.getState',
      'threads.markDelivered',
      'threads.markRowsDelivered',
      'threads.markRowsHandled',
      'threads.setOpen',
      'threads.setWorking',
      'photos.create',
      'photos.attach',
      'housekeeping.trimThreads',
      'housekeeping.deleteMessagesBefore',
    ],
    'the page version moves on every write a page shows, and only then (ADR 0216)',
    async (store) => {
      const f = fixtures(store);
      const u = await f.user();
      const a = await f.agent(u.id, 'a');
      const b = await f.agent(u.id, 'b');
      const key = { agentId: a.id, userId: u.id };
      const version = async () => (await store.threads.getState(key)).pageVersion;
      const seen: (string | null)[] = [];
      /** Runs `write`; expects the version to change to one never seen before (or to stay, `moves` false). */
      const check = async (what: string, write: () => Promise<unknown>, moves = true) => {
        const before = await version();
        await write();
        const now = await version();
        if (moves) {
          expect(now, what).not.toBeNull();
          expect(seen.includes(now), `${what}: a version seen before`).toBe(false);
        } else expect(now, what).toBe(before);
        seen.push(now);
      };
      await store.threads.markRead(key, 0); // a read mark before any message
      await check('an agent row', () => store.threads.append(f.message(key, 'agent', 'a1')));
      await check('a read mark', () => store.threads.markRead(key, 1), false);
      await check('open', () => store.threads.setOpen(key, true, 2), false);
      await check('working', () => store.threads.setWorking(key, 99), false);
      await check(
        'another thread written',
        () => store.threads.append(f.message({ agentId: b.id, userId: u.id }, 'agent', 'b1')),
        false,
      );
      const p1 = await store.threads.append(f.message(key, 'person', 'p1'));
      seen.push(await version());
      await check('a screen', () =>
        store.threads.appendScreen(
          { id: newId('msg_'), ...key, sender: 'agent', kind: 'screen', body: 'x', createdAt: 2 },
          { id: newId('scr_'), lines: 'note "x"', ops: [], taps: [] },
        ),
      );
      await check('delivered', () => store.threads.markDelivered(key, p1.seq + 10, 3));
      await check('rows delivered', () => store.threads.markRowsDelivered(key, [p1.id], 4));
      await check('claimed', () => store.threads.claimAnswers({ ...key, afterSeq: 0, limit: 5, at: 5 }));
      const p2 = await store.threads.append(f.message(key, 'person', 'p2'));
      seen.push(await version());
      await check('rows handled', () => store.threads.markRowsHandled(key, [p2.id], 6));
      const photo = {
        id: newId('pho_'),
        ...key,
        messageId: null,
        file: 'f.png',
        contentType: 'image/png',
        bytes: 3,
        createdAt: 7,
      };
      await check('an unsent photo', () => store.photos.create(photo), false);
      await check('a photo attached', () => store.photos.attach([photo.id], p2.id));
      await check('rows trimmed', () => store.housekeeping.trimThreads(1));
      await check('rows expired', () => store.housekeeping.deleteMessagesBefore(Number.MAX_SAFE_INTEGER));
      expect(await store.threads.page({ ...key, limit: 10 })).toEqual([]);
    },
  ),
  c(
    ['threads.append', 'photos.get', 'photos.listByMessage'],
    'a message binds its photos in its own write; a photo bound elsewhere stays (ADR 0217)',
    async (store) => {
      const f = fixtures(store);
      const u = await f.user();
      const a = await f.agent(u.id, 'a');
      const key = { agentId: a.id, userId: u.id };
      const photo = (n: number) =>
        store.photos.create({
          id: newId('pho_'),
          ...key,
          messageId: null,
          file: `f${n}.png`,
          contentType: 'image/png',
          bytes: 3,
          createdAt: n,
        });
      const [p1, p2, p3] = [await photo(1), await photo(2), await photo(3)];
      const first = await store.threads.append({
        ...f.message(key, 'person', 'two photos', 4),
        meta: { photos: [p1.id, p2.id] },
        photoIds: [p1.id, p2.id],
      });
      expect((await store.photos.get(p1.id))?.messageId).toBe(first.id);
      expect((await store.photos.get(p2.id))?.messageId).toBe(first.id);
      const second = await store.threads.append({
        ...f.message(key, 'person', 'a tap', 5),
        kind: 'tap',
        photoIds: [p2.id, p3.id],
      });
      expect((await store.photos.get(p2.id))?.messageId).toBe(first.id);
      expect((await store.photos.get(p3.id))?.messageId).toBe(second.id);
      expect((await store.photos.listByMessage([first.id])).map((p) => p.id).sort()).toEqual(
        [p1.id, p2.id].sort(),
      );
    },
  ),
];
