// The tables of the multi-instance parts, for a database the store's migrations have not yet given them.
import type pg from 'pg';
import { TURN_LEASES_MIGRATION } from './leases/turn-leases.js';
import { LIMITS_MIGRATION } from './limits/schema.js';
import { NOTIFY_MIGRATION, type ScaleMigration } from './notify/schema.js';
import { withPooledClient } from './store/pooled-client.js';

/** The schema steps of the notifier, the limits and the turn leases, in order (each idempotent). */
export const SCALE_MIGRATIONS: readonly ScaleMigration[] = [
  NOTIFY_MIGRATION,
  LIMITS_MIGRATION,
  TURN_LEASES_MIGRATION,
];

/**
 * Runs {@link SCALE_MIGRATIONS} (each idempotent) in one transaction.
 *
 * @example `await ensureScaleSchema(pool);`
 */
export async function ensureScaleSchema(pool: pg.Pool): Promise<void> {
  await withPooledClient(pool, async (client) => {
    try {
      await client.query('BEGIN');
      // Two instances starting at once would race on CREATE TABLE IF NOT EXISTS: one waits for the other.
      await client.query('SELECT pg_advisory_xact_lock(7230)');
      for (const m of SCALE_MIGRATIONS) await client.query(m.sql);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    }
  });
}
