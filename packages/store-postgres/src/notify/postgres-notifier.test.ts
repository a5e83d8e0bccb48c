import { waitForAnswers } from '@screen-service/core/threads';
import type { ThreadEvent } from '@screen-service/registry/kernel';
import type { MessageRecord } from '@screen-service/registry/model';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureScaleSchema } from '../scale-schema.js';
import { createTestDatabase, ignoreClosing, type TestDatabase } from '../testing.js';
import { createPostgresNotifier, type PostgresNotifier } from './postgres-notifier.js';

let db: TestDatabase;
let pool: pg.Pool;
const open: PostgresNotifier[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  pool = new pg.Pool({ connectionString: db.url, max: 6 });
  pool.on('error', ignoreClosing);
  await ensureScaleSchema(pool);
});
afterAll(async () => {
  for (const n of open) await n.close();
  await pool.end();
  await db.drop();
});

async function instance(options: { reconnectMs?: number; probeMs?: number } = {}) {
  const n = createPostgresNotifier({ pool, connectionString: db.url, ...options });
  await n.start();
  open.push(n);
  return n;
}

function message(userId: string, agentId: string, seq: number, body = 'hi'): MessageRecord {
  return {
    seq,
    id: `msg_${seq}`,
    userId,
    agentId,
    sender: 'person',
    kind: 'text',
    body,
    meta: {},
    screenId: null,
    connectorId: null,
    createdAt: 1_700_000_000_000 + seq,
    deliveredAt: null,
    handledAt: null,
  };
}

/** Resolves with the first `count` events `userId` sees on `n`. */
function collect(n: PostgresNotifier, userId: string, count: number): Promise<ThreadEvent[]> {
  const seen: ThreadEvent[] = [];
  return new Promise((resolve) => {
    const stop = n.subscribe(userId, (e) => {
      seen.push(e);
      if (seen.length === count) {
        stop();
        resolve(seen);
      }
    });
  });
}

describe('createPostgresNotifier', () => {
  it('delivers an event published on one instance to the listeners of another, in order', async () => {
    const a = await instance();
    const b = await instance();
    const got = collect(b, 'u1', 3);
    a.publish({ type: 'message', userId: 'u1', agentId: 'ag1', message: message('u1', 'ag1', 1) });
    a.publish({ type: 'read', userId: 'u1', agentId: 'ag1', seq: 1 });
    a.publish({ type: 'agents', userId: 'u1' });
    const events = await got;
    expect(events.map((e) => e.type)).toEqual(['message', 'read', 'agents']);
    expect(events[0]).toEqual({
      type: 'message',
      userId: 'u1',
      agentId: 'ag1',
      message: message('u1', 'ag1', 1),
    });
  });

  it('delivers to local listeners at once and not a second time through the database', async () => {
    const a = await instance();
    const seen: ThreadEvent[] = [];
    a.subscribe('u2', (e) => seen.push(e));
    a.publish({ type: 'agents', userId: 'u2' });
    expect(seen).toHaveLength(1);
    await a.flush();
    await new Promise((r) => setTimeout(r, 150));
    expect(seen).toHaveLength(1);
  });

  it('sends the events published while a NOTIFY is on its way in one statement, in order', async () => {
    // Why a tool call's event is not folded into its write (ADR 0289): under concurrent calls the events of
    // many calls leave in one statement, so a NOTIFY per write would add statements, not save them.
    const sending = new pg.Pool({ connectionString: db.url, max: 2 });
    sending.on('error', ignoreClosing);
    const statements: string[] = [];
    const query = sending.query.bind(sending) as (...args: unknown[]) => unknown;
    sending.query = ((...args: unknown[]) => {
      statements.push(String(args[0]));
      return query(...args);
    }) as typeof sending.query;
    const a = createPostgresNotifier({ pool: sending, connectionString: db.url });
    await a.start();
    const b = await instance();
    const got = collect(b, 'u9', 6);
    for (let seq = 1; seq <= 6; seq++) {
      a.publish({ type: 'message', userId: 'u9', agentId: 'ag9', message: message('u9', 'ag9', seq) });
    }
    const events = await got;
    await a.close();
    await sending.end();
    expect(events.map((e) => (e.type === 'message' ? e.message.seq : 0))).toEqual([1, 2, 3, 4, 5, 6]);
    // The first event leaves at once; the five published while it was on its way share the next statement.
    expect(statements.filter((t) => t.includes('pg_notify'))).toHaveLength(2);
  });

  it('sends an event above the 8000-byte NOTIFY limit by reference, whole', async () => {
    const a = await instance();
    const b = await instance();
    const body = 'é'.repeat(20_000); // 40 000 bytes of UTF-8
    const got = collect(b, 'u3', 2);
    a.publish({ type: 'message', userId: 'u3', agentId: 'ag1', message: message('u3', 'ag1', 7, body) });
    a.publish({ type: 'agents', userId: 'u3' });
    const [first, second] = await got;
    expect(first?.type === 'message' && first.message.body).toBe(body);
    expect(second?.type).toBe('agents');
    const rows = await pool.query('SELECT count(*)::int AS n FROM svc_notify_payloads');
    expect(rows.rows[0].n).toBeGreaterThan(0);
  });

  it('subscribeAll listeners see every user; listenerCount follows unsubscribes', async () => {
    const a = await instance();
    const b = await instance();
    const all: string[] = [];
    const stopAll = b.subscribeAll((e) => all.push(e.userId));
    const stop = b.subscribe('u4', () => {});
    expect(b.listenerCount('u4')).toBe(1);
    const got = collect(b, 'u5', 1);
    a.publish({ type: 'agents', userId: 'u4' });
    a.publish({ type: 'agents', userId: 'u5' });
    await got;
    expect(all).toEqual(['u4', 'u5']);
    stop();
    stopAll();
    expect(b.listenerCount('u4')).toBe(0);
  });

  it('reconnects a LISTEN connection that was cut and tells local waiters to re-check', async () => {
    const a = await instance();
    const b = await instance({ reconnectMs: 20 });
    const pid = b.listenerPid();
    expect(pid).not.toBeNull();
    const resynced = new Promise<ThreadEvent>((resolve) => {
      const stop = b.subscribe('u6', (e) => {
        if (e.type !== 'resync') return;
        stop();
        resolve(e);
      });
    });
    await pool.query('SELECT pg_terminate_backend($1)', [pid]);
    expect(await resynced).toEqual({ type: 'resync', userId: 'u6' });
    expect(b.listening()).toBe(true);
    expect(b.listenerPid()).not.toBe(pid);
    // And events flow again on the new connection.
    const got = collect(b, 'u6', 1);
    a.publish({ type: 'agents', userId: 'u6' });
    expect((await got)[0]?.type).toBe('agents');
  });

  it('a waiting svc_answers on one instance returns a row written while its link was down', async () => {
    const b = await instance({ reconnectMs: 50 });
    // The "row" lives in the database; the claim reads it, as the store's claim would.
    await pool.query(
      'CREATE TABLE IF NOT EXISTS t_rows (id serial PRIMARY KEY, claimed boolean DEFAULT false)',
    );
    const claim = async () => {
      const r = await pool.query<{ id: number }>(
        'UPDATE t_rows SET claimed = true WHERE NOT claimed RETURNING id',
      );
      return r.rows.map((row) => message('u7', 'ag7', row.id));
    };
    const started = Date.now();
    const waiting = waitForAnswers({
      notifier: b,
      key: { userId: 'u7', agentId: 'ag7' },
      waitMs: 10_000,
      claim,
    });
    await new Promise((r) => setTimeout(r, 100));
    await pool.query('SELECT pg_terminate_backend($1)', [b.listenerPid()]);
    // Written (with its NOTIFY lost: nobody is listening) before the link is back.
    await pool.query('INSERT INTO t_rows DEFAULT VALUES');
    const rows = await waiting;
    expect(rows).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('refuses a channel name it cannot LISTEN on, naming the rule', () => {
    expect(() => createPostgresNotifier({ pool, connectionString: db.url, channel: 'Bad-Name' })).toThrow(
      /lower-case letters/,
    );
  });

  it('start fails with POSTGRES_UNAVAILABLE when nothing listens at the URL', async () => {
    const n = createPostgresNotifier({ pool, connectionString: 'postgres://svc:x@127.0.0.1:1/none' });
    await expect(n.start()).rejects.toMatchObject({ code: 'POSTGRES_UNAVAILABLE' });
    await n.close();
  });
});
