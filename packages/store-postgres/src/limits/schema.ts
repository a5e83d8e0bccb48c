// `svc_limits` (doc1's name for the rate store) and its sibling for failure throttles.
import type { ScaleMigration } from '../notify/schema.js';

/**
 * `svc_limits`: one token bucket per (limit, key), carrying its own burst and refill rate so a sweep can drop
 * full buckets without knowing the limits; `svc_limit_failures`: failures in a row per (throttle, key).
 */
export const LIMITS_MIGRATION: ScaleMigration = {
  name: 'svc_limits',
  sql: `CREATE TABLE IF NOT EXISTS svc_limits (
  name text NOT NULL,
  key text NOT NULL,
  tokens double precision NOT NULL,
  at_ms double precision NOT NULL,
  burst double precision NOT NULL,
  per_ms double precision NOT NULL,
  granted boolean NOT NULL,
  PRIMARY KEY (name, key)
);
CREATE TABLE IF NOT EXISTS svc_limit_failures (
  name text NOT NULL,
  key text NOT NULL,
  failures integer NOT NULL,
  last_at_ms double precision NOT NULL,
  PRIMARY KEY (name, key)
);`,
};
