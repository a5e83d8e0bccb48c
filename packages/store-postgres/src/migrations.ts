// The service schema on PostgreSQL as numbered, append-only migrations (recorded in svc_migrations).
// Version 1 mirrors the SQLite schema's final state at its version 15 (store-sqlite's migrations.ts), in
// PostgreSQL's own terms: BIGINT times in ms, BOOLEAN flags, JSON as TEXT (read and written whole, as the
// SQLite store does), an identity column for the thread's seq, PL/pgSQL triggers for the SQLite ones.
// Photo bytes live in photo_files (ADR 0220). Version 2 holds relay tables' rows (the tables engine, ADR 0222).

import { AGENT_ROW_KEYS_V14 } from './migrations-agent-row-keys.js';
import { ANSWER_KEYS_V11 } from './migrations-answer-keys.js';
import { SCREEN_DEADLINES_V9 } from './migrations-deadlines.js';
import { PHOTO_KEYS_V13 } from './migrations-photo-keys.js';
import { PUSH_NOTICES_V8 } from './migrations-push-notices.js';
import { RECEIPT_BATCH_HOLDERS_V16, RECEIPT_BATCHES_V15 } from './migrations-receipt-batches.js';
import { TASKS_V10 } from './migrations-tasks.js';
import { ACCOUNT_TIME_ZONE_V7 } from './migrations-time-zone.js';
import { WITHDRAWN_SCREENS_V12 } from './migrations-withdraw.js';

import { SCHEMA_V1 } from './schema-v1.js';

/** One schema step. Never edit a migration that has shipped; append a new one. */
export interface PostgresMigration {
  version: number;
  name: string;
  sql: string;
}

// The tables engine's store (ADR 0222): a row's cells as one jsonb object keyed by column name, so a
// column change rewrites values, not the schema; the SQLite layout's c0..c11 slots are not needed.
const TABLES_V2 = `
CREATE TABLE te_tables (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  owner TEXT NOT NULL,
  holder TEXT NOT NULL,
  name TEXT NOT NULL,
  cols JSONB NOT NULL,
  next_row INTEGER NOT NULL DEFAULT 1,
  next_seq BIGINT NOT NULL DEFAULT 1,
  row_count INTEGER NOT NULL DEFAULT 0,
  CONSTRAINT te_tables_name_unique UNIQUE (owner, holder, name)
);
CREATE INDEX te_tables_owner ON te_tables (owner, id);

CREATE TABLE te_rows (
  table_id BIGINT NOT NULL REFERENCES te_tables (id) ON DELETE CASCADE,
  seq BIGINT NOT NULL,
  key TEXT NOT NULL,
  vals JSONB NOT NULL,
  PRIMARY KEY (table_id, seq),
  CONSTRAINT te_rows_key_unique UNIQUE (table_id, key)
);

CREATE TABLE te_pending (
  n BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  owner TEXT NOT NULL,
  holder TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('row', 'table')),
  tbl TEXT NOT NULL,
  key TEXT,
  line TEXT NOT NULL
);
CREATE INDEX te_pending_owner ON te_pending (owner, holder, n);

-- A deleted account takes its tables along, as SQLite's users_delete trigger does.
CREATE FUNCTION te_forget_owner() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM te_tables WHERE owner = OLD.id;
  DELETE FROM te_pending WHERE owner = OLD.id;
  RETURN OLD;
END $$;
CREATE TRIGGER te_forget_owner AFTER DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION te_forget_owner();
`;

// The thread page's version (ADR 0216), as the SQLite store's version 16: changed by the database on
// every write to what a page shows, so a built page is reused only while it holds. Values come from one
// sequence (never reused, so a thread removed and begun again never returns to an old page's version).
// Statement-level triggers: a statement that changes many rows moves each thread's version once.
const PAGE_VERSION_V3 = `
CREATE SEQUENCE thread_page_versions;
ALTER TABLE thread_state ADD COLUMN page_version BIGINT;
INSERT INTO thread_state (agent_id, user_id)
  SELECT DISTINCT agent_id, user_id FROM messages
  ON CONFLICT (agent_id, user_id) DO NOTHING;
UPDATE thread_state SET page_version = nextval('thread_page_versions');
CREATE FUNCTION thread_page_written() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO thread_state (agent_id, user_id, page_version)
    SELECT c.agent_id, c.user_id, nextval('thread_page_versions')
      FROM (SELECT DISTINCT agent_id, user_id FROM changed) c
    ON CONFLICT (agent_id, user_id) DO UPDATE SET page_version = excluded.page_version;
  RETURN NULL;
END $$;
CREATE FUNCTION thread_page_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE thread_state s SET page_version = nextval('thread_page_versions')
    FROM (SELECT DISTINCT agent_id, user_id FROM changed) c
   WHERE s.agent_id = c.agent_id AND s.user_id = c.user_id;
  RETURN NULL;
END $$;
CREATE TRIGGER messages_page_insert AFTER INSERT ON messages
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION thread_page_written();
CREATE TRIGGER messages_page_update AFTER UPDATE ON messages
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION thread_page_changed();
CREATE TRIGGER messages_page_delete AFTER DELETE ON messages
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION thread_page_changed();
CREATE TRIGGER photos_page_update AFTER UPDATE ON photos
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION thread_page_changed();
CREATE TRIGGER photos_page_delete AFTER DELETE ON photos
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION thread_page_changed();
`;

// SQLite's version 17: a photo's displayed size from its header (NULL for older rows).
const PHOTO_SIZE_V4 = `
ALTER TABLE photos ADD COLUMN width INTEGER, ADD COLUMN height INTEGER;
`;

// The page version moves in the rules' own writes (ADR 0241), as SQLite's version 18: each write that
// changes a page carries a fresh value the core drew and sets it in the same statement. The triggers, their
// functions and the sequence go; the column and its values stay (versions already given remain valid).
const PAGE_VERSION_IN_RULES_V5 = `
DROP TRIGGER messages_page_insert ON messages;
DROP TRIGGER messages_page_update ON messages;
DROP TRIGGER messages_page_delete ON messages;
DROP TRIGGER photos_page_update ON photos;
DROP TRIGGER photos_page_delete ON photos;
DROP FUNCTION thread_page_written();
DROP FUNCTION thread_page_changed();
DROP SEQUENCE thread_page_versions;
`;

// The client-safe rule is checked by the core inside each grant's and template's transaction (ADR 0241),
// as SQLite's version 19: the trigger and its function go.
const CLIENT_SAFE_IN_RULES_V6 = `
DROP TRIGGER grants_client_safe ON grants;
DROP TRIGGER share_items_client_safe ON share_template_items;
DROP FUNCTION svc_require_client_safe();
`;

/**
 * The PostgreSQL store's migrations, in order. Its own list (not the SQLite versions): version 1 is the
 * schema the SQLite store reaches at its version 15.
 */
export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  { version: 1, name: 'service-schema', sql: SCHEMA_V1 },
  { version: 2, name: 'relay-table-rows', sql: TABLES_V2 },
  { version: 3, name: 'thread-page-version', sql: PAGE_VERSION_V3 },
  { version: 4, name: 'photo-size', sql: PHOTO_SIZE_V4 },
  { version: 5, name: 'page-version-in-rules', sql: PAGE_VERSION_IN_RULES_V5 },
  { version: 6, name: 'client-safe-in-rules', sql: CLIENT_SAFE_IN_RULES_V6 },
  { version: 7, name: 'account-time-zone', sql: ACCOUNT_TIME_ZONE_V7 },
  { version: 8, name: 'push-notices', sql: PUSH_NOTICES_V8 },
  { version: 9, name: 'deadlines-and-receipts', sql: SCREEN_DEADLINES_V9 },
  { version: 10, name: 'tasks', sql: TASKS_V10 },
  { version: 11, name: 'answer-keys', sql: ANSWER_KEYS_V11 },
  { version: 12, name: 'withdrawn-screens', sql: WITHDRAWN_SCREENS_V12 },
  { version: 13, name: 'photo-keys', sql: PHOTO_KEYS_V13 },
  { version: 14, name: 'agent-row-keys', sql: AGENT_ROW_KEYS_V14 },
  { version: 15, name: 'receipt-batches', sql: RECEIPT_BATCHES_V15 },
  { version: 16, name: 'receipt-batch-holders', sql: RECEIPT_BATCH_HOLDERS_V16 },
];

/** Every table of the store that holds a user's rows (the account-deletion test checks each is empty). */
export const POSTGRES_USER_TABLES = [
  'users',
  'app_sessions',
  'connectors',
  'agents',
  'pairing_codes',
  'messages',
  'screens',
  'photos',
  'thread_state',
  'push_intents',
  'oauth_requests',
  'oauth_tokens',
  'agent_connections',
  'relay_tables',
  'relay_agent_state',
  'management_tokens',
  'push_subscriptions',
  'push_outbox',
  'push_notices',
  'push_settings',
  'person_presence',
  'thread_presence',
  'native_agents',
  'share_templates',
  'share_template_items',
  'share_invites',
  'grants',
  'screen_deadlines',
  'screen_offers',
  'answer_receipts',
  'tasks',
] as const;
