// A host's stream on instance B owes every person row written through instance A, in seq order, even when two
// writes race: the stream's cursor is one seq across every thread the connection serves, and PostgreSQL's
// identity draws seqs at insert but rows become visible at commit. Here the write to agent one draws its seq,
// then waits (a lock the test holds on the agent row stops its foreign-key check); the write to agent two of
// the same connection comes next. Unless rows of one connection commit in seq order, agent two's row (seq
// n+1) reaches the stream first, the cursor moves past n, and agent one's row is never sent.
import { createCore } from '@screen-service/core';
import type { HostMessage } from '@screen-service/core/host-messages';
import { fastHasher, seedConnection, seedUser } from '@screen-service/test-kit';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresServices, type PostgresServices } from '../src/index.js';
import { createTestDatabase, type TestDatabase } from '../src/testing.js';

let db: TestDatabase;
let a: PostgresServices;
let b: PostgresServices;

function instance(services: PostgresServices) {
  return createCore({
    hasher: fastHasher,
    secret: new TextEncoder().encode('test-secret-test-secret-test-secret'),
    urls: 'http://127.0.0.1',
    ...services.core,
  });
}

beforeAll(async () => {
  db = await createTestDatabase();
  a = await createPostgresServices(db.url);
  b = await createPostgresServices(db.url);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await db?.drop();
});

/** Backends of this database waiting on a lock (the writes held back). */
async function waiting(admin: pg.Client): Promise<number> {
  const r = await admin.query(
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
  );
  return r.rows[0].n;
}

describe('a host stream across instances', () => {
  it('gets both rows of two racing writes to two agents of one connection, in seq order', async () => {
    const coreA = instance(a);
    const coreB = instance(b);
    const user = await seedUser(coreA.store);
    const { connector, agents } = await seedConnection(coreA.store, user.id, ['one', 'two']);
    const [one, two] = agents as [(typeof agents)[0], (typeof agents)[0]];
    const principal = {
      userId: user.id,
      connectorId: connector.id,
      connectorKind: connector.kind,
      via: 'connector_token' as const,
    };
    const got: HostMessage[] = [];
    const close = await coreB.hostTransport.open(principal, { send: (m) => got.push(m), end: () => {} });
    // The stream is live on B: a first row goes through.
    await coreA.threads.say(user.id, one.id, { text: 'hello' });
    await expect.poll(() => got.length).toBe(1);

    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM agents WHERE id = $1 FOR UPDATE', [one.id]);
      const first = coreA.threads.say(user.id, one.id, { text: 'first' });
      await expect.poll(() => waiting(admin)).toBe(1);
      const second = coreA.threads.say(user.id, two.id, { text: 'second' });
      // The second write either waits behind the first (ordered) or commits ahead of it (the bug): the
      // first is let go only then, so the test sees the race every run.
      await expect
        .poll(async () => (await waiting(admin)) === 2 || got.some((m) => m.text === 'second'))
        .toBe(true);
      await holder.query('ROLLBACK');
      await Promise.all([first, second]);
    } finally {
      await holder.end();
      await admin.end();
    }
    await expect.poll(() => got.map((m) => m.text)).toEqual(['hello', 'first', 'second']);
    const seqs = got.map((m) => m.seq);
    expect([...seqs].sort((x, y) => x - y)).toEqual(seqs);

    // A stream opened afterwards from the cursor before the race replays the same two rows.
    const replay: HostMessage[] = [];
    const close2 = await coreB.hostTransport.open(principal, {
      after: got[0]!.seq,
      send: (m) => replay.push(m),
      end: () => {},
    });
    expect(replay.map((m) => m.text)).toEqual(['first', 'second']);
    close2();
    close();
    coreA.stopping.abort();
    coreB.stopping.abort();
  });
});
