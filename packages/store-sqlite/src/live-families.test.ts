// A sign-in family found live is kept while nothing changed app_sessions (ADRs 0300, 0304), on a real SQLite
// file: a revoke or a deletion by this connection (the store's, or raw SQL) ends it at once, another process's
// revoke from the next turn.
import { setImmediate as turn } from 'node:timers/promises';
import { createTestStore, type TestStore } from '@screen-service/test-kit';
import { afterEach, describe, expect, it } from 'vitest';

let t: TestStore;
afterEach(() => t?.close());

const HOUR = 3_600_000;

async function signedIn(family = 'fam_1', userId = 'usr_1', expiresAt = Date.now() + HOUR) {
  t = createTestStore({ prefix: 'svc-live-families-' });
  const { store } = t;
  await store.users.create({
    id: userId,
    email: `${userId}@example.com`,
    passwordHash: 'x',
    firstName: null,
    createdAt: 1,
    suspendedAt: null,
  });
  await store.sessions.create({
    id: `ses_${family}`,
    userId,
    familyId: family,
    refreshHash: `hash_${family}`,
    createdAt: 1,
    expiresAt,
    usedAt: null,
    revokedAt: null,
  });
  return store;
}

describe('familyLive keeps a live family while nothing changed it', () => {
  it('a revoke of the family through the store ends it at once, in the same turn', async () => {
    const store = await signedIn();
    expect(await store.sessions.familyLive('fam_1', Date.now())).toBe(true);
    await store.sessions.revokeFamily('fam_1', Date.now());
    expect(await store.sessions.familyLive('fam_1', Date.now())).toBe(false);
  });

  it("a revoke of the user's sessions, or the user's deletion, ends it at once", async () => {
    const store = await signedIn();
    expect(await store.sessions.familyLive('fam_1', Date.now())).toBe(true);
    await store.sessions.revokeUser('usr_1', Date.now());
    expect(await store.sessions.familyLive('fam_1', Date.now())).toBe(false);

    t.close();
    const again = await signedIn('fam_2', 'usr_2');
    expect(await again.sessions.familyLive('fam_2', Date.now())).toBe(true);
    await again.users.delete('usr_2');
    expect(await again.sessions.familyLive('fam_2', Date.now())).toBe(false);
  });

  it('another connection’s revoke (the CLI) is seen from the next turn; within the turn the family is kept', async () => {
    const store = await signedIn();
    expect(await store.sessions.familyLive('fam_1', Date.now())).toBe(true);
    const cli = new (t.db.constructor as new (f: string) => typeof t.db)(t.file);
    cli.prepare('UPDATE app_sessions SET revoked_at = ? WHERE family_id = ?').run(Date.now(), 'fam_1');
    cli.close();
    // Same turn: the answer the first statement gave (one statement per family and turn).
    expect(await store.sessions.familyLive('fam_1', Date.now())).toBe(true);
    await turn();
    expect(await store.sessions.familyLive('fam_1', Date.now())).toBe(false);
  });

  it('a family kept across turns ends at once when this connection revokes it in plain SQL', async () => {
    const store = await signedIn();
    expect(await store.sessions.familyLive('fam_1', Date.now())).toBe(true);
    await turn();
    expect(await store.sessions.familyLive('fam_1', Date.now())).toBe(true);
    t.db.prepare('UPDATE app_sessions SET revoked_at = ? WHERE family_id = ?').run(Date.now(), 'fam_1');
    expect(await store.sessions.familyLive('fam_1', Date.now())).toBe(false);
  });

  it('another connection’s revoke in a later turn is seen at that turn’s first check', async () => {
    const store = await signedIn();
    expect(await store.sessions.familyLive('fam_1', Date.now())).toBe(true);
    await turn();
    const cli = new (t.db.constructor as new (f: string) => typeof t.db)(t.file);
    cli.prepare('UPDATE app_sessions SET revoked_at = ? WHERE family_id = ?').run(Date.now(), 'fam_1');
    cli.close();
    await turn();
    expect(await store.sessions.familyLive('fam_1', Date.now())).toBe(false);
  });

  it('a kept family still ends when the session that showed it expires', async () => {
    const expiresAt = Date.now() + HOUR;
    const store = await signedIn('fam_1', 'usr_1', expiresAt);
    expect(await store.sessions.familyLive('fam_1', expiresAt - 1)).toBe(true);
    expect(await store.sessions.familyLive('fam_1', expiresAt)).toBe(false);
  });

  it('a family found ended is not kept: a new live session of it is seen in the same turn', async () => {
    const store = await signedIn();
    expect(await store.sessions.familyLive('fam_other', Date.now())).toBe(false);
    await store.sessions.create({
      id: 'ses_other',
      userId: 'usr_1',
      familyId: 'fam_other',
      refreshHash: 'hash_other',
      createdAt: 1,
      expiresAt: Date.now() + HOUR,
      usedAt: null,
      revokedAt: null,
    });
    expect(await store.sessions.familyLive('fam_other', Date.now())).toBe(true);
  });
});
