// Conformance cases: a photo upload's idempotency key names one photo per person (issue 45, ADR 0287).
import { newId } from '@screen-service/registry/kernel';
import { expect } from 'vitest';
import { type ConformanceCase, conformanceCase as c } from './cases.js';
import { fixtures, outcome } from './fixtures.js';

const photo = (key: { agentId: string; userId: string }, file: string, idemKey?: string) => ({
  id: newId('pho_'),
  ...key,
  messageId: null,
  file,
  contentType: 'image/png',
  bytes: 3,
  createdAt: 1,
  ...(idemKey === undefined ? {} : { idemKey }),
});

export const photoKeyCases: ConformanceCase[] = [
  c(
    ['photos.findByKey', 'photos.create'],
    "a photo's upload key is kept once per person; other people and uploads without a key keep it free",
    async (store) => {
      const f = fixtures(store);
      const u = await f.user();
      const v = await f.user();
      const a = await f.agent(u.id, 'a');
      const b = await f.agent(u.id, 'b');
      const w = await f.agent(v.id, 'w');
      const ka = { agentId: a.id, userId: u.id };
      const first = await store.photos.create(photo(ka, 'one.png', 'k1'));
      expect(await store.photos.findByKey(u.id, 'k1')).toMatchObject({ id: first.id, idemKey: 'k1' });
      expect(await store.photos.get(first.id)).toMatchObject({ idemKey: 'k1' });
      expect(await store.photos.findByKey(u.id, 'k2')).toBeNull();
      expect(await store.photos.findByKey(v.id, 'k1')).toBeNull();
      // Once per person, whatever the thread: the key again is CONFLICT naming the header, and no row is added.
      const again = await store.photos.create(photo(ka, 'two.png', 'k1')).catch((e: unknown) => e);
      expect(again).toMatchObject({ code: 'CONFLICT', field: 'idempotency-key' });
      expect(String((again as Error).message)).toContain('"k1"');
      expect(
        await outcome(store.photos.create(photo({ agentId: b.id, userId: u.id }, 'three.png', 'k1'))),
      ).toBe('CONFLICT');
      expect((await store.photos.listByUser(u.id)).map((p) => p.file)).toEqual(['one.png']);
      // Another person's key is theirs; uploads without a key never collide and read back null.
      expect(await outcome(store.photos.create(photo({ agentId: w.id, userId: v.id }, 'w.png', 'k1')))).toBe(
        'ok',
      );
      const plain = await store.photos.create(photo(ka, 'plain1.png'));
      await store.photos.create(photo(ka, 'plain2.png'));
      expect(await store.photos.get(plain.id)).toMatchObject({ idemKey: null });
      expect(await store.photos.listByUser(u.id)).toHaveLength(3);
    },
  ),
  c(
    ['photos.findByKey'],
    'two uploads with one key at once: exactly one row, the others CONFLICT',
    async (store) => {
      const f = fixtures(store);
      const u = await f.user();
      const a = await f.agent(u.id, 'a');
      const key = { agentId: a.id, userId: u.id };
      const results = await Promise.all(
        ['x.png', 'y.png', 'z.png'].map((file) =>
          outcome(store.transaction((tx) => tx.photos.create(photo(key, file, 'same')))),
        ),
      );
      expect(results.filter((r) => r === 'ok')).toHaveLength(1);
      expect(results.filter((r) => r === 'CONFLICT')).toHaveLength(2);
      expect(await store.photos.listByUser(u.id)).toHaveLength(1);
      expect((await store.photos.findByKey(u.id, 'same'))?.file).toMatch(/^[xyz]\.png$/);
    },
  ),
];
