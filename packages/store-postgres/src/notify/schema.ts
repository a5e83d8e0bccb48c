// The one table the shared notifier needs: events too large for a NOTIFY payload wait here, by reference.

/** A schema step of this package's own tables, for the store's migration list (ADR 0230). */
export interface ScaleMigration {
  /** A short stable name (the store's migration list records it). */
  name: string;
  /** Idempotent DDL: safe to run again on a database that has it. */
  sql: string;
}

/** `svc_notify_payloads`: events above the NOTIFY limit, read once by every listener, kept 10 minutes. */
export const NOTIFY_MIGRATION: ScaleMigration = {
  name: 'svc_notify_payloads',
  sql: `CREATE TABLE IF NOT EXISTS svc_notify_payloads (
  id bigserial PRIMARY KEY,
  payload text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS svc_notify_payloads_created ON svc_notify_payloads (created_at);`,
};
