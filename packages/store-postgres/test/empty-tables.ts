// Empties every table of the store (not svc_migrations), so tests can share one migrated database.
import type pg from 'pg';

export async function emptyAllTables(pool: pg.Pool): Promise<void> {
  const { rows } = await pool.query<{ name: string }>(
    "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'svc_migrations'",
  );
  if (rows.length > 0)
    await pool.query(`TRUNCATE ${rows.map((r) => `"${r.name}"`).join(', ')} RESTART IDENTITY CASCADE`);
}
