// The service schema on PostgreSQL as numbered, append-only migrations (recorded in svc_migrations).
// Version 1 mirrors the SQLite schema's final state at its version 15 (store-sqlite's migrations.ts), in
// PostgreSQL's own terms: BIGINT times in ms, BOOLEAN flags, JSON as TEXT (read and written whole, as the
// SQLite store does), an identity column for the thread's seq, PL/pgSQL triggers for the SQLite ones.
// Photo bytes live in photo_files (ADR 0220). Version 2 holds relay tables' rows (the tables engine, ADR 0222).
import { ACCOUNT_TIME_ZONE_V7 } from './migrations-time-zone.js';

/** One schema step. Never edit a migration that has shipped; append a new one. */
export interface PostgresMigration {
  version: number;
  name: string;
  sql: string;
}

const SCHEMA_V1 = `
CREATE TABLE service_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE users (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL CONSTRAINT users_email_unique UNIQUE,
  password_hash TEXT NOT NULL,
  first_name TEXT,
  created_at BIGINT NOT NULL,
  suspended_at BIGINT
);

CREATE TABLE app_sessions (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  family_id TEXT NOT NULL,
  refresh_hash TEXT NOT NULL UNIQUE,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  used_at BIGINT,
  revoked_at BIGINT
);
CREATE INDEX app_sessions_user ON app_sessions(user_id);
CREATE INDEX app_sessions_family ON app_sessions(family_id);
CREATE INDEX app_sessions_expiry ON app_sessions(expires_at);

CREATE TABLE connectors (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('hostfw', 'http', 'mcp', 'hosted')),
  token_hash TEXT NOT NULL UNIQUE,
  created_at BIGINT NOT NULL,
  last_seen_at BIGINT,
  revoked_at BIGINT,
  suspended_at BIGINT,
  via TEXT NOT NULL DEFAULT 'pairing' CHECK (via IN ('pairing', 'oauth')),
  UNIQUE (id, user_id)
);
CREATE INDEX connectors_user ON connectors(user_id);
CREATE INDEX connectors_seen ON connectors(last_seen_at) WHERE revoked_at IS NULL;

CREATE TABLE agents (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL CHECK (char_length(name) BETWEEN 1 AND 40),
  handle TEXT NOT NULL,
  color TEXT NOT NULL CHECK (color IN ('lavender', 'mint', 'butter', 'brand')),
  avatar TEXT,
  theme TEXT NOT NULL DEFAULT '{}' CHECK (octet_length(theme) <= 2048),
  push_muted BOOLEAN NOT NULL DEFAULT FALSE,
  kind TEXT NOT NULL CHECK (kind IN ('hostfw', 'http', 'mcp', 'hosted')),
  connector_id TEXT REFERENCES connectors(id) ON DELETE SET NULL,
  remote_ref TEXT,
  is_default BOOLEAN NOT NULL DEFAULT FALSE,
  sort INTEGER NOT NULL DEFAULT 0,
  commands TEXT CHECK (commands IS NULL OR octet_length(commands) <= 32768),
  commands_at BIGINT,
  card TEXT,
  client_safe BOOLEAN NOT NULL DEFAULT FALSE,
  sandbox TEXT,
  client_safe_at BIGINT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  CONSTRAINT agents_handle_unique UNIQUE (user_id, handle),
  CONSTRAINT agents_remote_ref_unique UNIQUE (connector_id, remote_ref)
);
CREATE INDEX agents_user ON agents(user_id, sort);
CREATE UNIQUE INDEX agents_one_default ON agents(user_id) WHERE is_default;
CREATE INDEX agents_connector_order ON agents(connector_id, is_default DESC, sort, created_at, id);

CREATE TABLE agent_connections (
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  connector_id TEXT NOT NULL REFERENCES connectors(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (agent_id, connector_id)
);
CREATE INDEX agent_connections_connector ON agent_connections(connector_id);

CREATE TABLE pairing_codes (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  code_hash TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  used_at BIGINT,
  connector_id TEXT REFERENCES connectors(id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX pairing_codes_unused_hash ON pairing_codes(code_hash) WHERE used_at IS NULL;
CREATE INDEX pairing_codes_agent ON pairing_codes(agent_id);
CREATE INDEX pairing_codes_expiry ON pairing_codes(expires_at);

CREATE TABLE pair_attempts (
  client_addr TEXT NOT NULL,
  at BIGINT NOT NULL
);
CREATE INDEX pair_attempts_addr ON pair_attempts(client_addr, at);

CREATE TABLE messages (
  seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  sender TEXT NOT NULL CHECK (sender IN ('agent', 'person')),
  kind TEXT NOT NULL CHECK (kind IN ('text', 'screen', 'tap')),
  body TEXT NOT NULL,
  meta TEXT NOT NULL DEFAULT '{}',
  screen_id TEXT,
  connector_id TEXT REFERENCES connectors(id) ON DELETE SET NULL,
  created_at BIGINT NOT NULL,
  delivered_at BIGINT,
  handled_at BIGINT,
  idem_key TEXT
);
CREATE INDEX messages_thread ON messages(agent_id, user_id, seq);
CREATE INDEX messages_unhandled ON messages(agent_id, user_id, seq) WHERE sender = 'person' AND handled_at IS NULL;
CREATE UNIQUE INDEX messages_idem ON messages(connector_id, idem_key) WHERE idem_key IS NOT NULL;
CREATE INDEX messages_created ON messages(created_at);
CREATE INDEX messages_user ON messages(user_id, agent_id);
CREATE INDEX messages_connector ON messages(connector_id);

CREATE TABLE screens (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  message_seq BIGINT NOT NULL,
  lines TEXT NOT NULL,
  ops TEXT NOT NULL,
  taps TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX screens_thread ON screens(agent_id, user_id);
CREATE INDEX screens_message ON screens(message_id);

CREATE TABLE photos (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  message_id TEXT REFERENCES messages(id) ON DELETE CASCADE,
  file TEXT NOT NULL,
  content_type TEXT NOT NULL,
  bytes BIGINT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX photos_message ON photos(message_id);
CREATE INDEX photos_unattached ON photos(created_at) WHERE message_id IS NULL;
CREATE INDEX photos_user ON photos(user_id, bytes);
CREATE INDEX photos_agent ON photos(agent_id, user_id);
CREATE INDEX photos_file ON photos(file);

-- The bytes of each photo, shared by every instance (ADR 0220); written before the photo row, like a file.
CREATE TABLE photo_files (
  file TEXT PRIMARY KEY,
  bytes BYTEA NOT NULL,
  created_at BIGINT NOT NULL
);

-- Files to remove (ADR 0092), queued by the transaction that deletes the photo row. Here the same trigger
-- also deletes the bytes, so a deleted photo never outlives its row; the queue keeps the sweep's contract.
CREATE TABLE photo_removals (
  file TEXT PRIMARY KEY,
  attempts INTEGER NOT NULL DEFAULT 0
);
CREATE FUNCTION photos_queue_removal() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO photo_removals (file) VALUES (OLD.file) ON CONFLICT DO NOTHING;
  DELETE FROM photo_files WHERE file = OLD.file;
  RETURN NULL;
END;
$$;
CREATE TRIGGER photos_queue_removal AFTER DELETE ON photos
  FOR EACH ROW EXECUTE FUNCTION photos_queue_removal();

CREATE TABLE thread_state (
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  read_seq BIGINT NOT NULL DEFAULT 0,
  open BOOLEAN NOT NULL DEFAULT FALSE,
  open_changed_at BIGINT,
  working_until BIGINT,
  PRIMARY KEY (agent_id, user_id)
);
CREATE INDEX thread_state_user ON thread_state(user_id);

CREATE TABLE push_intents (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  created_at BIGINT NOT NULL,
  sent_at BIGINT
);
CREATE INDEX push_intents_pending ON push_intents(created_at) WHERE sent_at IS NULL;
CREATE INDEX push_intents_message ON push_intents(message_id);
CREATE INDEX push_intents_user ON push_intents(user_id);

CREATE TABLE oauth_clients (
  id TEXT PRIMARY KEY,
  secret_hash TEXT,
  auth_method TEXT NOT NULL CHECK (auth_method IN ('none', 'client_secret_post', 'client_secret_basic')),
  name TEXT NOT NULL,
  redirect_uris TEXT NOT NULL,
  metadata TEXT NOT NULL DEFAULT '{}',
  created_at BIGINT NOT NULL,
  CHECK ((auth_method = 'none') = (secret_hash IS NULL))
);

CREATE TABLE oauth_requests (
  id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  redirect_uri TEXT NOT NULL,
  state TEXT,
  code_challenge TEXT NOT NULL,
  scope TEXT NOT NULL,
  resource TEXT NOT NULL,
  browser_hash TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'denied')),
  user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
  agent_id TEXT REFERENCES agents(id) ON DELETE SET NULL,
  decided_at BIGINT,
  finished_at BIGINT,
  code_hash TEXT UNIQUE,
  code_expires_at BIGINT,
  code_used_at BIGINT,
  connector_id TEXT REFERENCES connectors(id) ON DELETE CASCADE
);
CREATE INDEX oauth_requests_expiry ON oauth_requests(expires_at);
CREATE INDEX oauth_requests_user ON oauth_requests(user_id);
CREATE INDEX oauth_requests_connector ON oauth_requests(connector_id);
CREATE INDEX oauth_requests_client ON oauth_requests(client_id);
CREATE INDEX oauth_requests_agent ON oauth_requests(agent_id);

CREATE TABLE oauth_tokens (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
  token_hash TEXT NOT NULL UNIQUE,
  connector_id TEXT NOT NULL REFERENCES connectors(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  client_id TEXT NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  used_at BIGINT,
  revoked_at BIGINT
);
CREATE INDEX oauth_tokens_connector ON oauth_tokens(connector_id);
CREATE INDEX oauth_tokens_user ON oauth_tokens(user_id);
CREATE INDEX oauth_tokens_expiry ON oauth_tokens(expires_at);
CREATE INDEX oauth_tokens_client ON oauth_tokens(client_id);

CREATE TABLE relay_tables (
  n BIGINT GENERATED ALWAYS AS IDENTITY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  holder TEXT NOT NULL,
  name TEXT NOT NULL,
  last_read_at BIGINT,
  unheld_at BIGINT,
  PRIMARY KEY (user_id, holder, name)
);
CREATE INDEX relay_tables_unheld ON relay_tables(unheld_at) WHERE unheld_at IS NOT NULL;

CREATE TABLE relay_agent_state (
  agent_id TEXT PRIMARY KEY REFERENCES agents(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  reads_in_row INTEGER NOT NULL DEFAULT 0,
  handover TEXT
);
CREATE INDEX relay_agent_state_user ON relay_agent_state(user_id);

CREATE TABLE management_tokens (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  scope TEXT NOT NULL DEFAULT 'agents:manage' CHECK (scope = 'agents:manage'),
  created_at BIGINT NOT NULL,
  last_used_at BIGINT,
  revoked_at BIGINT
);
CREATE INDEX management_tokens_user ON management_tokens(user_id, created_at);

CREATE TABLE push_subscriptions (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  endpoint TEXT NOT NULL UNIQUE,
  p256dh TEXT NOT NULL,
  auth TEXT NOT NULL,
  device TEXT,
  created_at BIGINT NOT NULL
);
CREATE INDEX push_subscriptions_user ON push_subscriptions(user_id);

CREATE TABLE push_outbox (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  subscription_id TEXT NOT NULL REFERENCES push_subscriptions(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('message', 'revoked')),
  message_id TEXT REFERENCES messages(id) ON DELETE CASCADE,
  created_at BIGINT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_at BIGINT NOT NULL
);
CREATE INDEX push_outbox_due ON push_outbox(next_at);
CREATE INDEX push_outbox_subscription ON push_outbox(subscription_id);
CREATE INDEX push_outbox_agent ON push_outbox(agent_id);
CREATE INDEX push_outbox_message ON push_outbox(message_id);

CREATE TABLE thread_presence (
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  device TEXT NOT NULL,
  until BIGINT NOT NULL,
  PRIMARY KEY (agent_id, user_id, device)
);

CREATE TABLE native_agents (
  agent_id TEXT PRIMARY KEY REFERENCES agents(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  template TEXT,
  instructions TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX native_agents_user ON native_agents(user_id);

CREATE TABLE share_templates (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  title TEXT NOT NULL,
  shared_by TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  UNIQUE (user_id, name)
);

CREATE TABLE share_template_items (
  template_id TEXT NOT NULL REFERENCES share_templates(id) ON DELETE CASCADE,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  theme TEXT NOT NULL DEFAULT '{}',
  first_message TEXT NOT NULL,
  sort INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (template_id, agent_id)
);
CREATE INDEX share_template_items_agent ON share_template_items(agent_id);
CREATE INDEX share_template_items_user ON share_template_items(user_id);

CREATE TABLE share_invites (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  template_id TEXT NOT NULL REFERENCES share_templates(id) ON DELETE CASCADE,
  token_hash TEXT NOT NULL UNIQUE,
  first_name TEXT,
  created_at BIGINT NOT NULL,
  approved_at BIGINT,
  claimed_at BIGINT,
  claimed_by TEXT REFERENCES users(id) ON DELETE CASCADE
);
CREATE INDEX share_invites_owner ON share_invites(user_id);
CREATE INDEX share_invites_template ON share_invites(template_id);
CREATE INDEX share_invites_claimed_by ON share_invites(claimed_by);

CREATE TABLE grants (
  id TEXT PRIMARY KEY,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  owner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role TEXT NOT NULL DEFAULT 'user' CHECK (role = 'user'),
  theme TEXT NOT NULL DEFAULT '{}',
  first_message TEXT,
  template TEXT,
  invite_id TEXT,
  push_muted BOOLEAN NOT NULL DEFAULT FALSE,
  sort INTEGER NOT NULL DEFAULT 0,
  shared_by TEXT NOT NULL,
  granted_at BIGINT NOT NULL,
  revoked_at BIGINT,
  CHECK (user_id <> owner_id)
);
CREATE UNIQUE INDEX grants_live ON grants(agent_id, user_id) WHERE revoked_at IS NULL;
CREATE INDEX grants_user ON grants(user_id);
CREATE INDEX grants_owner ON grants(owner_id);
CREATE INDEX grants_revoked ON grants(revoked_at) WHERE revoked_at IS NOT NULL;

-- The client-safe rule in the database itself (doc2): a grant or template item only for the owner's
-- client-safe agent. The store maps the exception's message to NOT_CLIENT_SAFE.
CREATE FUNCTION svc_require_client_safe() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE owner_of TEXT;
BEGIN
  -- Separate statements: PL/pgSQL plans each when it runs, and items have no owner_id field.
  IF TG_TABLE_NAME = 'grants' THEN
    owner_of := NEW.owner_id;
  ELSE
    owner_of := NEW.user_id;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM agents WHERE id = NEW.agent_id AND client_safe AND user_id = owner_of) THEN
    RAISE EXCEPTION 'NOT_CLIENT_SAFE' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER grants_client_safe BEFORE INSERT ON grants
  FOR EACH ROW EXECUTE FUNCTION svc_require_client_safe();
CREATE TRIGGER share_items_client_safe BEFORE INSERT ON share_template_items
  FOR EACH ROW EXECUTE FUNCTION svc_require_client_safe();

CREATE TABLE housekeeping_claims (
  name TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  until BIGINT NOT NULL
);
`;

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
  'thread_presence',
  'native_agents',
  'share_templates',
  'share_template_items',
  'share_invites',
  'grants',
] as const;
