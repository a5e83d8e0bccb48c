// What a second instance makes possible: two stores on two pools (as two processes would have) racing for
// the same claim. Each claim must be won once, whatever the interleaving.
import { writeGrant } from '@screen-service/core/sharing';
import { createPairing } from '@screen-service/registry/hosts';
import { newId, ServiceError } from '@screen-service/registry/kernel';
import type { Store } from '@screen-service/registry/model';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openPostgresStore, type PostgresStore } from '../src/index.js';
import { STREAM_LOCK_SQL } from '../src/store/pg-threads.js';
import { createTestDatabase, type TestDatabase } from '../src/testing.js';
import { emptyAllTables } from './empty-tables.js';
import { seedAgent, seedUser } from './seed.js';

let db: TestDatabase;
let a: PostgresStore;
let b: PostgresStore;

beforeAll(async () => {
  db = await createTestDatabase();
  [a, b] = await Promise.all([openPostgresStore({ url: db.url }), openPostgresStore({ url: db.url })]);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await db?.drop();
});
beforeEach(() => emptyAllTables(a.pool));

describe('two instances on one PostgreSQL', () => {
  it('claimAnswers: two instances draining one thread get every answer exactly once', async () => {
    const u = await seedUser(a);
    const ag = await seedAgent(a, u.id, 'a');
    const key = { agentId: ag.id, userId: u.id };
    const bodies: string[] = [];
    for (let i = 0; i < 60; i++) {
      bodies.push(`p${i}`);
      await (i % 2 ? a : b).threads.append(
        { id: newId('msg_'), ...key, sender: 'person', kind: 'text', body: `p${i}`, createdAt: i },
        i,
      );
    }
    const drain = async (s: Store) => {
      const got: string[] = [];
      for (;;) {
        const batch = await s.threads.claimAnswers({ ...key, afterSeq: 0, limit: 3, at: 1, version: 1 });
        if (batch.length === 0) return got;
        got.push(...batch.map((m) => m.body));
      }
    };
    const [x, y, z, w] = await Promise.all([drain(a), drain(b), drain(a), drain(b)]);
    const all = [...x!, ...y!, ...z!, ...w!];
    expect(all.length).toBe(60);
    expect(new Set(all).size).toBe(60);
    expect([...all].sort()).toEqual([...bodies].sort());
    expect(await b.threads.countUnhandled(key)).toBe(0);
  });

  it('pairing: the same code paired on both instances binds once', async () => {
    const u = await seedUser(a);
    const ag = await seedAgent(a, u.id, 'a');
    // The registry's pairing rule (claim, connection, binding in one transaction) on each instance.
    const pairingOf = (s: Store) => createPairing({ store: s });
    const { code } = await pairingOf(a).mintCode(u.id, ag.id);
    const pair = (s: Store, n: number) =>
      pairingOf(s)
        .pair({ code, remote_ref: 'r', kind: 'mcp', host_name: `laptop ${n}`, clientAddr: '10.0.0.1' })
        .then(
          () => 'ok',
          (e: unknown) => (e instanceof ServiceError ? e.code : String(e)),
        );
    const outcomes = await Promise.all([pair(a, 1), pair(b, 2), pair(a, 3), pair(b, 4)]);
    expect(outcomes.sort()).toEqual([
      'INVALID_OR_EXPIRED_CODE',
      'INVALID_OR_EXPIRED_CODE',
      'INVALID_OR_EXPIRED_CODE',
      'ok',
    ]);
    // The losers' connection inserts rolled back with their claims.
    expect(await a.connectors.listByUser(u.id)).toHaveLength(1);
    expect((await a.agents.get(ag.id))?.connectorId).toBe((await a.connectors.listByUser(u.id))[0]!.id);
  });

  it('sessions and housekeeping claims: one winner each', async () => {
    const u = await seedUser(a);
    await a.sessions.create({
      id: 's1',
      userId: u.id,
      familyId: 'f1',
      refreshHash: 'h1',
      createdAt: 1,
      expiresAt: Date.now() + 60_000,
      usedAt: null,
      revokedAt: null,
    });
    const rotate = (s: Store, n: number) =>
      s.sessions.rotate(
        's1',
        {
          id: `s2-${n}`,
          userId: u.id,
          familyId: 'f1',
          refreshHash: `h2-${n}`,
          createdAt: 2,
          expiresAt: Date.now() + 60_000,
          usedAt: null,
          revokedAt: null,
        },
        Date.now(),
      );
    expect(
      (await Promise.all([rotate(a, 1), rotate(b, 2), rotate(a, 3), rotate(b, 4)])).filter(Boolean),
    ).toHaveLength(1);
    const claim = (s: Store, holder: string) => s.housekeeping.claim('sweep', holder, 100, 200);
    expect(
      (await Promise.all([claim(a, 'i1'), claim(b, 'i2'), claim(a, 'i3'), claim(b, 'i4')])).filter(Boolean),
    ).toHaveLength(1);
    expect(await claim(a, 'i5')).toBe(false);
    expect(await a.housekeeping.claim('sweep', 'i5', 200, 300)).toBe(true);
  });

  it("agents: a user's first agents created on both instances at once leave exactly one default", async () => {
    const u = await seedUser(a);
    await Promise.all(['a', 'b', 'c', 'd', 'e', 'f'].map((h, i) => seedAgent(i % 2 ? a : b, u.id, h)));
    const list = await a.agents.listByUser(u.id);
    expect(list.filter((x) => x.isDefault)).toHaveLength(1);
    expect(list.map((x) => x.sort).sort()).toEqual([0, 1, 2, 3, 4, 5]);
    const taken = await Promise.all(
      [seedAgent(a, u.id, 'same'), seedAgent(b, u.id, 'same')].map((p) =>
        p.then(
          () => 'ok',
          (e) => (e instanceof ServiceError ? e.code : String(e)),
        ),
      ),
    );
    expect(taken.sort()).toEqual(['HANDLE_TAKEN', 'ok']);
  });

  it('shares: a grant created on both instances at once is given once (CONFLICT for the other)', async () => {
    const owner = await seedUser(a);
    const holder = await seedUser(a);
    const ag = await seedAgent(a, owner.id, 'shared');
    await a.agents.setSandbox(ag.id, { sandbox: {}, clientSafe: true, clientSafeAt: 1 });
    // The core's grant rule (client-safe, one live grant) in its transaction, on each instance.
    const grant = (s: Store, id: string) =>
      writeGrant(s, {
        id,
        agentId: ag.id,
        ownerId: owner.id,
        userId: holder.id,
        role: 'user',
        theme: {},
        firstMessage: null,
        template: null,
        inviteId: null,
        pushMuted: false,
        sharedBy: 'O',
        grantedAt: 1,
      }).then(
        () => 'ok',
        (e: unknown) => (e instanceof ServiceError ? e.code : String(e)),
      );
    expect((await Promise.all([grant(a, 'g1'), grant(b, 'g2')])).sort()).toEqual(['CONFLICT', 'ok']);
  });
});

describe('thread seq order across instances', () => {
  it("an append waits for its connection's lock (an agent's own without one), so a seq is never committed behind a newer one", async () => {
    const u = await seedUser(a);
    const ag = await seedAgent(a, u.id, 'a');
    const holder = await b.pool.connect();
    try {
      await holder.query('BEGIN');
      // What another instance's append holds between drawing its seq and committing.
      await holder.query(`SELECT pg_advisory_xact_lock(${STREAM_LOCK_SQL.replaceAll('$3', '$1')})`, [ag.id]);
      let done = false;
      const append = a.threads
        .append(
          {
            id: newId('msg_'),
            userId: u.id,
            agentId: ag.id,
            sender: 'person',
            kind: 'text',
            body: 'x',
            createdAt: 1,
          },
          1,
        )
        .then((m) => {
          done = true;
          return m;
        });
      await new Promise((r) => setTimeout(r, 300));
      expect(done).toBe(false);
      // Another connection's (here: another unpaired agent's) thread is not held up.
      const other = await seedAgent(a, u.id, 'b');
      await a.threads.append(
        {
          id: newId('msg_'),
          userId: u.id,
          agentId: other.id,
          sender: 'person',
          kind: 'text',
          body: 'y',
          createdAt: 1,
        },
        2,
      );
      await holder.query('COMMIT');
      expect((await append).body).toBe('x');
    } finally {
      holder.release();
    }
  });
  it("an agent's row takes no lock: it commits while a person's row of the same connection holds it (issue 42)", async () => {
    const u = await seedUser(a);
    const ag = await seedAgent(a, u.id, 'a');
    const holder = await b.pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT pg_advisory_xact_lock(${STREAM_LOCK_SQL.replaceAll('$3', '$1')})`, [ag.id]);
      // Read by pages, newest first, never behind a forward cursor: nothing to order, so nothing to wait for.
      const row = { id: newId('msg_'), userId: u.id, agentId: ag.id, kind: 'text' as const, createdAt: 1 };
      const said = await a.threads.append({ ...row, sender: 'agent', body: 'said' }, 1);
      expect(said.body).toBe('said');
      const shown = await a.threads.appendScreen(
        { ...row, id: newId('msg_'), sender: 'agent', kind: 'screen', body: 'note "hi"' },
        { id: newId('scr_'), lines: 'note "hi"', ops: [], taps: [] },
        2,
      );
      expect(shown.screen.messageSeq).toBeGreaterThan(said.seq);
      await holder.query('COMMIT');
    } finally {
      holder.release();
    }
  });
});
