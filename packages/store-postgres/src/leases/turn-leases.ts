// `svc_turn_leases`: the one instance of several that runs a native agent's turn (ADR 0227). A lease is a row
// per agent with its holder and the database's time it lapses, taken with one upsert that succeeds only when
// the row is free, lapsed or already this holder's: instances' own clocks never decide.
import type pg from 'pg';
import type { ScaleMigration } from '../notify/schema.js';

/** The leases' table (made with the notifier's and limits' tables by `ensureScaleSchema`). */
export const TURN_LEASES_MIGRATION: ScaleMigration = {
  name: 'svc_turn_leases',
  sql: `CREATE TABLE IF NOT EXISTS svc_turn_leases (
  agent_id text PRIMARY KEY,
  holder text NOT NULL,
  until timestamptz NOT NULL
);`,
};

const CLAIM = `INSERT INTO svc_turn_leases AS l (agent_id, holder, until)
  VALUES ($1, $2, clock_timestamp() + $3 * interval '1 millisecond')
  ON CONFLICT (agent_id) DO UPDATE SET holder = excluded.holder, until = excluded.until
  WHERE l.holder = excluded.holder OR l.until < clock_timestamp()
  RETURNING holder`;

/** Turn leases on PostgreSQL: the shape of native-agents' `TurnLeases`. */
export interface PostgresTurnLeases {
  claim(agentId: string, holder: string, ttlMs: number): Promise<boolean>;
  release(agentId: string, holder: string): Promise<void>;
}

/**
 * @example
 * ```ts
 * const leases = createPostgresTurnLeases({ pool });
 * if (await leases.claim(agentId, 'instance-a', 60_000)) { ...; await leases.release(agentId, 'instance-a'); }
 * ```
 */
export function createPostgresTurnLeases(options: { pool: pg.Pool }): PostgresTurnLeases {
  const { pool } = options;
  return {
    async claim(agentId, holder, ttlMs) {
      const r = await pool.query(CLAIM, [agentId, holder, Math.max(1, Math.round(ttlMs))]);
      return r.rowCount === 1;
    },
    async release(agentId, holder) {
      await pool.query('DELETE FROM svc_turn_leases WHERE agent_id = $1 AND holder = $2', [agentId, holder]);
    },
  };
}
