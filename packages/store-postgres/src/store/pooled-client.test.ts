import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, ignoreClosing, type TestDatabase } from '../testing.js';
import { isConnectionLoss, withPooledClient } from './pooled-client.js';

let db: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase();
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  pool.on('error', ignoreClosing);
});
afterAll(async () => {
  await pool.end();
  await db.drop();
});

it('survives the connection of a checked-out client ending between statements, and drops that client', async () => {
  // Without the listener the FATAL "terminating connection" reaches a client the pool does not listen to,
  // and node-postgres's unhandled `error` event ends the process (an instance died so when PostgreSQL
  // restarted under `npm run faults -- --store postgres`).
  let pidOfBroken = 0;
  const run = withPooledClient(pool, async (client) => {
    pidOfBroken = Number((await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
    await pool.query('SELECT pg_terminate_backend($1)', [pidOfBroken]);
    await client.query('SELECT 1');
  });
  await expect(run).rejects.toThrow(/terminat|not queryable|Connection|ECONNRESET/i);
  // The broken client was destroyed, not returned to the pool: the next caller gets a live connection.
  const pid = await withPooledClient(pool, async (c) =>
    Number((await c.query('SELECT pg_backend_pid() AS pid')).rows[0].pid),
  );
  expect(pid).not.toBe(pidOfBroken);
  expect(pid).toBeGreaterThan(0);
});

it('tells a lost connection from a statement the server refused', () => {
  expect(isConnectionLoss(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
  expect(isConnectionLoss(Object.assign(new Error('admin shutdown'), { code: '57P01' }))).toBe(true);
  expect(isConnectionLoss(Object.assign(new Error('connection failure'), { code: '08006' }))).toBe(true);
  expect(isConnectionLoss(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe(true);
  expect(isConnectionLoss(new Error('Connection terminated unexpectedly'))).toBe(true);
});
