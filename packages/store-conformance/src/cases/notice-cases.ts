// Conformance cases: the notifications devices were sent (issue 39): answer tokens spent once, a screen's
// notices closed together, and the quiet `stale` pushes to the devices that still show one.
import type { PushNoticeRecord, Store } from '@screen-service/registry/model';
import { expect } from 'vitest';
import { type ConformanceCase, conformanceCase as c } from './cases.js';
import { fixtures } from './fixtures.js';

const KEY = `B${'A'.repeat(86)}`;

async function withScreen(store: Store) {
  const f = fixtures(store);
  const user = await f.user();
  const agent = await f.agent(user.id, 'a');
  for (const [i, d] of ['phone', 'laptop', 'tablet'].entries()) {
    await store.push.saveSubscription({
      id: `psub_${d}`,
      userId: user.id,
      endpoint: `https://push.example/${d}`,
      p256dh: KEY,
      auth: 'AAAAAAAAAAAAAAAAAAAAAA',
      device: d,
      createdAt: i,
    });
  }
  const key = { agentId: agent.id, userId: user.id };
  const shown = await store.threads.appendScreen(
    { id: 'msg_s1', ...key, sender: 'agent', kind: 'screen', body: 'x', createdAt: 10 },
    { id: 'scr_1', lines: 'confirm "Go?"', ops: [], taps: [{ id: 'n1', preset: 'confirm' }] },
    f.version(),
  );
  const notice = (id: string, sub: string, over: Partial<PushNoticeRecord> = {}): PushNoticeRecord => ({
    id,
    ...key,
    subscriptionId: sub,
    messageId: shown.message.id,
    screenId: 'scr_1',
    tokenHash: `hash-${id}`,
    tapId: 'n1',
    choices: [true, false],
    createdAt: 20,
    expiresAt: 1000,
    usedAt: null,
    closedAt: null,
    ...over,
  });
  return { f, user, agent, key, shown, notice };
}

export const noticeCases: ConformanceCase[] = [
  c(
    ['push.saveNotice', 'push.findNotice', 'push.useNotice'],
    'an answer token is found by its hash and spent once, never after it expired or closed',
    async (store) => {
      const { notice } = await withScreen(store);
      const a = notice('pn_a', 'psub_phone');
      await store.push.saveNotice(a);
      expect(await store.push.findNotice('hash-pn_a')).toEqual(a);
      expect(await store.push.findNotice('hash-none')).toBeNull();
      expect(await store.push.useNotice('pn_a', 1000)).toBe(false); // expired
      const [x, y] = await Promise.all([store.push.useNotice('pn_a', 30), store.push.useNotice('pn_a', 31)]);
      expect([x, y].filter(Boolean)).toHaveLength(1);
      // Either caller may win (a pipelining store sends both at once); the winner's time is recorded.
      const spent = await store.push.findNotice('hash-pn_a');
      expect(spent?.usedAt).toBe(x ? 30 : 31);
      expect(spent?.closedAt).toBe(spent?.usedAt);
      // A notice without a token (a chat line's) is kept too; an expired one of the same device goes.
      await store.push.saveNotice(
        notice('pn_b', 'psub_phone', { tokenHash: null, choices: [], createdAt: 2000 }),
      );
      expect(await store.push.findNotice('hash-pn_a')).toBeNull();
    },
  ),
  c(
    ['push.closeNotices', 'push.enqueueStale', 'deadlines.stakes'],
    "closing a screen's notices returns the devices still showing it; stale rows go to those devices",
    async (store) => {
      const { notice, key, shown, f } = await withScreen(store);
      await store.push.saveNotice(notice('pn_1', 'psub_phone'));
      await store.push.saveNotice(notice('pn_2', 'psub_laptop'));
      // The tablet got a newer notification of the thread (a chat line): it no longer shows the screen.
      await store.push.saveNotice(notice('pn_3', 'psub_tablet'));
      await store.push.saveNotice(
        notice('pn_4', 'psub_tablet', { screenId: null, tokenHash: null, createdAt: 25 }),
      );
      expect((await store.deadlines.stakes('scr_1')).openNotice).toBe(true);
      const closed = await store.push.closeNotices('scr_1', 40);
      expect((await store.deadlines.stakes('scr_1')).openNotice).toBe(false);
      expect(closed.map((n) => [n.id, n.subscriptionId, n.closedAt])).toEqual([
        ['pn_1', 'psub_phone', 40],
        ['pn_2', 'psub_laptop', 40],
      ]);
      expect(await store.push.closeNotices('scr_1', 41)).toEqual([]);
      expect(await store.push.findNotice('hash-pn_3')).toMatchObject({ closedAt: 40 });
      expect(await store.push.useNotice('pn_2', 42)).toBe(false);
      const tap = await store.threads.append(
        { ...f.message(key, 'person', 'tap'), createdAt: 40 },
        f.version(),
      );
      const n = await store.push.enqueueStale({
        id: 'push_s',
        ...key,
        messageId: tap.id,
        subscriptionIds: ['psub_laptop', 'psub_gone'],
        at: 40,
      });
      expect(n).toBe(1);
      const due = await store.push.due(40, 10);
      expect(due.map((d) => [d.row.kind, d.row.messageId, d.subscription.id])).toEqual([
        ['stale', tap.id, 'psub_laptop'],
      ]);
      expect(
        await store.push.enqueueStale({
          id: 'push_t',
          ...key,
          messageId: tap.id,
          subscriptionIds: [],
          at: 41,
        }),
      ).toBe(0);
      expect(shown.screen.id).toBe('scr_1');
    },
  ),
  c(
    ['push.getSettings', 'push.saveSettings'],
    "the person's attention settings: none until saved, then whole",
    async (store) => {
      const { user } = await withScreen(store);
      expect(await store.push.getSettings(user.id)).toBeNull();
      const settings = {
        userId: user.id,
        quietStart: 22 * 60,
        quietEnd: 7 * 60,
        allowUrgent: false,
        plainPerHour: 0,
        updatedAt: 5,
      };
      await store.push.saveSettings(settings);
      expect(await store.push.getSettings(user.id)).toEqual(settings);
      const off = {
        ...settings,
        quietStart: null,
        quietEnd: null,
        allowUrgent: true,
        plainPerHour: 3,
        updatedAt: 6,
      };
      await store.push.saveSettings(off);
      expect(await store.push.getSettings(user.id)).toEqual(off);
    },
  ),
  c(
    ['push.setActive', 'push.isActive'],
    'presence: active while any device shows the app or holds a thread open, until it lapses or leaves',
    async (store) => {
      const { user, key } = await withScreen(store);
      const other = await fixtures(store).user();
      expect(await store.push.isActive(user.id, 10)).toBe(false);
      await store.push.setActive(user.id, 'laptop', 100);
      await store.push.setActive(user.id, 'phone', 50);
      expect(await store.push.isActive(user.id, 60)).toBe(true);
      expect(await store.push.isActive(other.id, 60)).toBe(false);
      await store.push.setActive(user.id, 'laptop', null);
      expect(await store.push.isActive(user.id, 60)).toBe(false);
      expect(await store.push.isActive(user.id, 40)).toBe(true);
      await store.push.setPresence(key, 'tablet', 200);
      expect(await store.push.isActive(user.id, 150)).toBe(true);
      expect(await store.push.isActive(user.id, 200)).toBe(false);
    },
  ),
  c(
    ['deadlines.stakes'],
    "an answer's stakes: the screen's deadline state and its open notices, each screen its own",
    async (store) => {
      const { notice, key, f } = await withScreen(store);
      // A screen with no deadline and no notification: nothing at stake.
      expect(await store.deadlines.stakes('scr_1')).toEqual({ deadline: 'none', openNotice: false });
      await store.push.saveNotice(notice('pn_1', 'psub_phone'));
      // A notice of the thread that is not the screen's (a chat line's) does not count.
      await store.push.saveNotice(notice('pn_2', 'psub_laptop', { screenId: null, tokenHash: null }));
      expect(await store.deadlines.stakes('scr_1')).toEqual({ deadline: 'none', openNotice: true });
      await store.threads.appendScreen(
        { ...f.message(key), kind: 'screen', body: 'x', screenId: 'scr_2' },
        { id: 'scr_2', lines: 'confirm "Go?"', ops: [], taps: [] },
        f.version(),
      );
      const deadline = (screenId: string) =>
        store.deadlines.create({ screenId, ...key, dueAt: 800, nextAt: 800, plan: {}, createdAt: 1 });
      await deadline('scr_2');
      expect(await store.deadlines.stakes('scr_2')).toEqual({ deadline: 'pending', openNotice: false });
      await deadline('scr_1');
      expect(await store.deadlines.stakes('scr_1')).toEqual({ deadline: 'pending', openNotice: true });
      await store.push.closeNotices('scr_1', 40);
      await store.deadlines.settle('scr_1', 50, 'answered');
      expect(await store.deadlines.stakes('scr_1')).toEqual({ deadline: 'answered', openNotice: false });
      await store.deadlines.settle('scr_2', 60, 'default');
      expect(await store.deadlines.stakes('scr_2')).toEqual({ deadline: 'default', openNotice: false });
      expect(await store.deadlines.withdraw({ screenId: 'scr_1', ...key, at: 70 })).toBe(true);
      expect(await store.deadlines.stakes('scr_1')).toEqual({ deadline: 'withdrawn', openNotice: false });
      expect(await store.deadlines.stakes('scr_none')).toEqual({ deadline: 'none', openNotice: false });
    },
  ),
];
