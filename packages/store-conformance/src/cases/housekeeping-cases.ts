// Conformance cases: the housekeeping deletes and claims, and the photo bookkeeping they rely on.
import { hashSecret, newId } from '@screen-service/registry/kernel';
import type { Store } from '@screen-service/registry/model';
import { expect } from 'vitest';
import { type ConformanceCase, conformanceCase as c } from './cases.js';
import { fixtures } from './fixtures.js';

const photo = (key: { agentId: string; userId: string }, file: string, bytes: number, createdAt: number) => ({
  id: newId('pho_'),
  ...key,
  messageId: null,
  file,
  contentType: 'image/png',
  bytes,
  createdAt,
});

async function session(store: Store, userId: string, expiresAt: number) {
  return store.sessions.create({
    id: newId('ses_'),
    userId,
    familyId: newId('fam_'),
    refreshHash: hashSecret(newId()),
    createdAt: 1,
    expiresAt,
    usedAt: null,
    revokedAt: null,
  });
}

export const housekeepingCases: ConformanceCase[] = [
  c(
    ['housekeeping.claim'],
    'a job is claimed by one holder until its claim lapses; the holder may renew',
    async (store) => {
      expect(await store.housekeeping.claim('sweep', 'a', 100, 200)).toBe(true);
      expect(await store.housekeeping.claim('sweep', 'b', 150, 250)).toBe(false);
      expect(await store.housekeeping.claim('sweep', 'a', 150, 300)).toBe(true);
      expect(await store.housekeeping.claim('other', 'b', 150, 250)).toBe(true);
      expect(await store.housekeeping.claim('sweep', 'b', 299, 400)).toBe(false);
      expect(await store.housekeeping.claim('sweep', 'b', 300, 400)).toBe(true);
      // Racing holders: one wins.
      const wins = await Promise.all(['c', 'd', 'e'].map((h) => store.housekeeping.claim('race', h, 1, 2)));
      expect(wins.filter(Boolean)).toHaveLength(1);
    },
  ),
  c(
    [
      'photos.create',
      'photos.listByUser',
      'photos.bytesOf',
      'housekeeping.deleteUnattachedPhotos',
      'photos.pendingRemovals',
      'photos.settleRemovals',
    ],
    "a person's photos and their bytes; unsent old photos go; removed files queue until settled",
    async (store) => {
      const f = fixtures(store);
      const u = await f.user();
      const a = await f.agent(u.id, 'a');
      const key = { agentId: a.id, userId: u.id };
      const stray = await store.photos.create(photo(key, 'stray.png', 10, 1));
      const sent = await store.photos.create(photo(key, 'sent.png', 20, 2));
      const young = await store.photos.create(photo(key, 'young.png', 40, 50));
      await store.threads.append(
        { ...f.message(key, 'person', 'with a photo'), photoIds: [sent.id] },
        f.version(),
      );
      expect((await store.photos.listByUser(u.id)).map((p) => p.id)).toEqual([stray.id, sent.id, young.id]);
      expect(await store.photos.bytesOf(u.id)).toBe(70);
      expect(await store.photos.bytesOf('usr_nobody')).toBe(0);
      expect(await store.photos.pendingRemovals(10)).toEqual([]);
      expect(await store.housekeeping.deleteUnattachedPhotos(10)).toBe(1);
      expect((await store.photos.listByUser(u.id)).map((p) => p.id)).toEqual([sent.id, young.id]);
      expect(await store.photos.pendingRemovals(10)).toEqual(['stray.png']);
      // A message deleted takes its photos; their files queue too.
      await store.housekeeping.deleteMessagesBefore(Number.MAX_SAFE_INTEGER, f.version());
      expect((await store.photos.pendingRemovals(10)).sort()).toEqual(['sent.png', 'stray.png']);
      // A failed removal counts an attempt and goes to the back; a removed one leaves the queue.
      await store.photos.settleRemovals([], ['sent.png']);
      expect(await store.photos.pendingRemovals(10)).toEqual(['stray.png', 'sent.png']);
      expect(await store.photos.pendingRemovals(1)).toEqual(['stray.png']);
      await store.photos.settleRemovals(['stray.png'], []);
      expect(await store.photos.pendingRemovals(10)).toEqual(['sent.png']);
    },
  ),
  c(
    ['housekeeping.deleteExpiredPairing', 'housekeeping.deleteLapsedSignIns'],
    'expired pairing codes and old wrong-code records go; lapsed sign-ins (requests, tokens, sessions) go',
    async (store) => {
      const f = fixtures(store);
      const u = await f.user();
      const a = await f.agent(u.id, 'a');
      await store.pairing.insert(f.pairingCode(u.id, a.id, '111111', 50));
      await store.pairing.insert(f.pairingCode(u.id, a.id, '222222', 500));
      await store.pairing.recordFailure('203.0.113.9', 10, 0);
      await store.pairing.recordFailure('203.0.113.9', 90, 0);
      expect(await store.housekeeping.deleteExpiredPairing(100, 50)).toBe(2);
      expect(await store.pairing.findUnused(hashSecret('222222'))).not.toBeNull();
      expect(await store.pairing.countFailures('203.0.113.9', 0)).toBe(1);

      const cl = await f.client();
      const lapsed = await f.request(cl.id, 100);
      const live = await f.request(cl.id, 1_000);
      const con = await f.connector(u.id, { via: 'oauth' });
      const old = { ...f.token('access', con.id, u.id, cl.id), expiresAt: 100 };
      const fresh = f.token('refresh', con.id, u.id, cl.id);
      await store.oauth.addTokens([old, fresh]);
      const gone = await session(store, u.id, 100);
      const kept = await session(store, u.id, 1_000);
      expect(await store.housekeeping.deleteLapsedSignIns(200)).toBe(3);
      expect(await store.oauth.getRequest(lapsed.id)).toBeNull();
      expect(await store.oauth.getRequest(live.id)).not.toBeNull();
      expect(await store.oauth.findToken(old.tokenHash)).toBeNull();
      expect(await store.oauth.findToken(fresh.tokenHash)).not.toBeNull();
      expect(await store.sessions.findByRefreshHash(gone.refreshHash)).toBeNull();
      expect(await store.sessions.findByRefreshHash(kept.refreshHash)).not.toBeNull();
    },
  ),
  c(
    ['photos.get', 'photos.create', 'photos.listByUser'],
    'a photo keeps the size read at upload; one without a size reads back null (issue 38)',
    async (store) => {
      const f = fixtures(store);
      const u = await f.user();
      const a = await f.agent(u.id, 'a');
      const key = { agentId: a.id, userId: u.id };
      const sized = await store.photos.create({ ...photo(key, 'sized.png', 3, 1), width: 1200, height: 900 });
      const unsized = await store.photos.create(photo(key, 'unsized.png', 3, 2));
      expect(await store.photos.get(sized.id)).toMatchObject({ width: 1200, height: 900 });
      expect(await store.photos.get(unsized.id)).toMatchObject({ width: null, height: null });
      expect((await store.photos.listByUser(u.id)).map((p) => [p.width, p.height])).toEqual([
        [1200, 900],
        [null, null],
      ]);
    },
  ),
];
