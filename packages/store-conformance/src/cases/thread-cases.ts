// Conformance cases: thread rows, screens, read and delivery marks, the page version, photos.
import { newId } from '@screen-service/registry/kernel';
import { expect } from 'vitest';
import { type ConformanceCase, conformanceCase as c } from './cases.js';
import { fixtures, outcome } from './fixtures.js';

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
        store.threads.append(f.message(key, sender, body), f.version());
      const p1 = await write('person', 'p1');
      await write('agent', 'a1');
      await write('person', 'p2');
      await write('person', 'p3');
      expect(await store.threads.countUnhandled(key)).toBe(3);
      const claim = (afterSeq: number, limit = 10) =>
        store.threads.claimAnswers({ ...key, afterSeq, limit, at: 5, version: f.version() });
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
        rows.push(await store.threads.append(f.message(key, 'agent', body), f.version()));
      expect((await store.threads.unreadByAgent(u.id)).get(a.id)).toBe(3);
      await store.threads.markRead(key, rows[1]!.seq, f.version());
      await store.threads.markRead(key, rows[0]!.seq, f.version()); // never moves back
      expect((await store.threads.getState(key)).readSeq).toBe(rows[1]!.seq);
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
      'threads.append',
      'threads.appendScreen',
      'threads.markRead',
      'threads.markDelivered',
      'threads.markRowsDelivered',
      'threads.markRowsHandled',
      'threads.claimAnswers',
      'threads.setOpen',
      'threads.setWorking',
      'photos.create',
      'housekeeping.trimThreads',
      'housekeeping.deleteMessagesBefore',
    ],
    'each write a page shows moves the thread to the version it was given, and only then (ADR 0216, 0241)',
    async (store) => {
      const f = fixtures(store);
      const u = await f.user();
      const a = await f.agent(u.id, 'a');
      const b = await f.agent(u.id, 'b');
      const key = { agentId: a.id, userId: u.id };
      const version = async (k = key) => (await store.threads.getState(k)).pageVersion;
      /** Runs `write` with a fresh version; the thread then holds that version (or, `moves` false, its old one). */
      const check = async (what: string, write: (v: number) => Promise<unknown>, moves = true) => {
        const before = await version();
        const v = f.version();
        await write(v);
        expect(await version(), what).toBe(moves ? String(v) : before);
      };
      // No state row, no version: a row alone does not make one (nothing may be reused for the thread).
      await store.threads.append(f.message({ agentId: b.id, userId: u.id }, 'agent', 'b0'), f.version());
      expect(await version({ agentId: b.id, userId: u.id })).toBeNull();
      // A write that makes the state row gives it the version it carries; one that finds it leaves it.
      await check('a first read mark', (v) => store.threads.markRead(key, 0, v));
      await check('an agent row', (v) => store.threads.append(f.message(key, 'agent', 'a1'), v));
      await check('a read mark', (v) => store.threads.markRead(key, 1, v), false);
      await check('open', (v) => store.threads.setOpen(key, true, 2, v), false);
      await check('working', (v) => store.threads.setWorking(key, 99, v), false);
      await check(
        'another thread written',
        (v) => store.threads.append(f.message({ agentId: b.id, userId: u.id }, 'agent', 'b1'), v),
        false,
      );
      const p1 = await store.threads.append(f.message(key, 'person', 'p1'), f.version());
      await check('a screen', (v) =>
        store.threads.appendScreen(
          { id: newId('msg_'), ...key, sender: 'agent', kind: 'screen', body: 'x', createdAt: 2 },
          { id: newId('scr_'), lines: 'note "x"', ops: [], taps: [] },
          v,
        ),
      );
      await check('delivered', (v) => store.threads.markDelivered(key, p1.seq + 10, 3, v));
      await check(
        'delivered, nothing new',
        (v) => store.threads.markDelivered(key, p1.seq + 10, 3, v),
        false,
      );
      await check('rows delivered', (v) => store.threads.markRowsDelivered(key, [p1.id], 4, v));
      await check('claimed', (v) =>
        store.threads.claimAnswers({ ...key, afterSeq: 0, limit: 5, at: 5, version: v }),
      );
      await check(
        'claimed, nothing left',
        (v) => store.threads.claimAnswers({ ...key, afterSeq: 0, limit: 5, at: 5, version: v }),
        false,
      );
      const p2 = await store.threads.append(f.message(key, 'person', 'p2'), f.version());
      await check('rows handled', (v) => store.threads.markRowsHandled(key, [p2.id], 6, v));
      await check('rows handled, none left', (v) => store.threads.markRowsHandled(key, [p2.id], 6, v), false);
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
      await check('a photo sent with its row', (v) =>
        store.threads.append({ ...f.message(key, 'person', 'p3'), photoIds: [photo.id] }, v),
      );
      await check('rows trimmed', (v) => store.housekeeping.trimThreads(1, v));
      await check('rows expired', (v) => store.housekeeping.deleteMessagesBefore(Number.MAX_SAFE_INTEGER, v));
      await check(
        'nothing left to expire',
        (v) => store.housekeeping.deleteMessagesBefore(Number.MAX_SAFE_INTEGER, v),
        false,
      );
      expect(await store.threads.page({ ...key, limit: 10 })).toEqual([]);
      // A state row made by presence or the working indicator starts at the version given.
      const c = await f.agent(u.id, 'c');
      const d = await f.agent(u.id, 'd');
      await store.threads.setOpen({ agentId: c.id, userId: u.id }, true, 1, 77);
      await store.threads.setWorking({ agentId: d.id, userId: u.id }, 9, 78);
      expect(await version({ agentId: c.id, userId: u.id })).toBe('77');
      expect(await version({ agentId: d.id, userId: u.id })).toBe('78');
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
      const first = await store.threads.append(
        {
          ...f.message(key, 'person', 'two photos', 4),
          meta: { photos: [p1.id, p2.id] },
          photoIds: [p1.id, p2.id],
        },
        f.version(),
      );
      expect((await store.photos.get(p1.id))?.messageId).toBe(first.id);
      expect((await store.photos.get(p2.id))?.messageId).toBe(first.id);
      const second = await store.threads.append(
        { ...f.message(key, 'person', 'a tap', 5), kind: 'tap', photoIds: [p2.id, p3.id] },
        f.version(),
      );
      expect((await store.photos.get(p2.id))?.messageId).toBe(first.id);
      expect((await store.photos.get(p3.id))?.messageId).toBe(second.id);
      expect((await store.photos.listByMessage([first.id])).map((p) => p.id).sort()).toEqual(
        [p1.id, p2.id].sort(),
      );
    },
  ),
];

export const threadReadCases: ConformanceCase[] = [
  c(
    [
      'threads.getMessage',
      'threads.getScreen',
      'threads.listScreens',
      'threads.lastByAgent',
      'threads.findByIdemKey',
      'threads.pendingForHost',
    ],
    'rows and screens read back as written; the newest row per agent; a reply found by its key; what a host owes',
    async (store) => {
      const f = fixtures(store);
      const u = await f.user();
      const con = await f.connector(u.id);
      const a = await f.agent(u.id, 'a', { connectorId: con.id, remoteRef: 'a' });
      const b = await f.agent(u.id, 'b', { connectorId: con.id, remoteRef: 'b' });
      const ka = { agentId: a.id, userId: u.id };
      const kb = { agentId: b.id, userId: u.id };
      const shown = await store.threads.appendScreen(
        { ...f.message(ka, 'agent', 'Lunch?'), kind: 'screen', meta: { n: 1 }, connectorId: con.id },
        {
          id: newId('scr_'),
          lines: 'choose@l "Lunch?" A|B',
          ops: [{ op: 'x' }],
          taps: [{ id: 'l', preset: 'choose' }],
        },
        f.version(),
      );
      expect(await store.threads.getMessage(shown.message.id)).toEqual(shown.message);
      expect(await store.threads.getMessage('msg_none')).toBeNull();
      expect(await store.threads.getScreen(shown.screen.id)).toEqual(shown.screen);
      expect(await store.threads.getScreen('scr_none')).toBeNull();
      expect(await store.threads.listScreens([shown.screen.id, 'scr_none'])).toEqual([shown.screen]);
      expect(await store.threads.listScreens([])).toEqual([]);
      const reply = await store.threads.append(
        { ...f.message(ka, 'agent', 'done'), connectorId: con.id, idemKey: 'k1' },
        f.version(),
      );
      expect(await store.threads.findByIdemKey(con.id, 'k1')).toEqual(reply);
      expect(await store.threads.findByIdemKey(con.id, 'k2')).toBeNull();
      expect(
        await outcome(
          store.threads.append(
            { ...f.message(ka, 'agent', 'again'), connectorId: con.id, idemKey: 'k1' },
            f.version(),
          ),
        ),
      ).toBe('CONFLICT');
      const p1 = await store.threads.append(f.message(ka, 'person', 'p1'), f.version());
      const p2 = await store.threads.append(f.message(kb, 'person', 'p2'), f.version());
      const p3 = await store.threads.append(f.message(ka, 'person', 'p3'), f.version());
      const last = await store.threads.lastByAgent(u.id);
      expect([...last.keys()].sort()).toEqual([a.id, b.id].sort());
      expect(last.get(a.id)?.id).toBe(p3.id);
      expect(last.get(b.id)?.id).toBe(p2.id);
      const owed = (afterSeq: number, limit = 10) =>
        store.threads.pendingForHost({ userId: u.id, agentIds: [a.id, b.id], afterSeq, limit });
      expect((await owed(0)).map((m) => m.id)).toEqual([p1.id, p2.id, p3.id]);
      expect((await owed(p1.seq, 1)).map((m) => m.id)).toEqual([p2.id]);
      await store.threads.markRowsHandled(ka, [p1.id], 9, f.version());
      expect((await owed(0)).map((m) => m.id)).toEqual([p2.id, p3.id]);
      expect(
        await store.threads.pendingForHost({ userId: u.id, agentIds: [], afterSeq: 0, limit: 5 }),
      ).toEqual([]);
    },
  ),
];
