// The service schema as numbered, append-only migrations (versions 2 to 49 belong to this package),
// applied by the one runner of @screen-service/tables-engine/migrations (ADR 0090).
// Plain SQL that PostgreSQL also reads where it can: partial unique indexes, CHECKs, ON DELETE CASCADE.
// Every user-owned row cascades from users(id), so deleting a user leaves zero rows.
import type { Migration } from '@screen-service/tables-engine/migrations';
import { TABLES_MIGRATIONS } from '@screen-service/tables-engine/sqlite';
import { SCHEMA_V24_ANSWER_KEYS } from './migrations-answer-keys.js';
import { SCHEMA_V22_SCREEN_DEADLINES } from './migrations-deadlines.js';
import { SCHEMA_V26_PHOTO_KEYS } from './migrations-photo-keys.js';
import { SCHEMA_V21_PUSH_NOTICES } from './migrations-push-notices.js';
import {
  SCHEMA_V27_RECEIPT_BATCHES,
  SCHEMA_V28_RECEIPT_BATCH_HOLDERS,
} from './migrations-receipt-batches.js';
import { SCHEMA_V23_TASKS } from './migrations-tasks.js';
import { SCHEMA_V20_ACCOUNT_TIME_ZONE } from './migrations-time-zone.js';
import { SCHEMA_V25_WITHDRAWN_SCREENS } from './migrations-withdraw.js';
import { SCHEMA_V2, SCHEMA_V4_OAUTH } from './schema-v2.js';

/** One schema step (the runner's `Migration`). Never edit a migration that has shipped; append a new one. */
export type CoreMigration = Migration;

// An agent served through more than its one primary connection (ADR 0091): approving an OAuth sign-in
// "as an existing agent" whose paired host is live adds a binding here instead of moving the agent.
const SCHEMA_V5_AGENT_CONNECTIONS = `
CREATE TABLE agent_connections (
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  connector_id TEXT NOT NULL REFERENCES connectors(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (agent_id, connector_id)
) STRICT;
CREATE INDEX agent_connections_connector ON agent_connections(connector_id);
`;

// Photo files to remove (ADR 0092): a row is queued in the same transaction that deletes its photo row
// (directly or by cascade from an agent or an account), so a deletion is never half-done; the core removes
// the files afterwards and keeps the ones that failed for the next pass.
const SCHEMA_V6_PHOTO_REMOVALS = `
CREATE TABLE photo_removals (
  file TEXT PRIMARY KEY,
  attempts INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE TRIGGER photos_queue_removal AFTER DELETE ON photos
BEGIN
  INSERT OR IGNORE INTO photo_removals (file) VALUES (old.file);
END;
`;

// Host message transport (ADR 0130): a host's reply carries an idempotency key chosen by the host, unique per
// connection, so a resend after a crash finds the row the first send wrote instead of writing a second one.
// `working_until` is the working indicator of a thread (doc3 "Bridge task states"): set when a host starts a
// turn, cleared by its answer, and lapsing by itself when a host dies mid-turn.
const SCHEMA_V7_HOST_TRANSPORT = `
ALTER TABLE messages ADD COLUMN idem_key TEXT;
CREATE UNIQUE INDEX messages_idem ON messages(connector_id, idem_key) WHERE idem_key IS NOT NULL;
ALTER TABLE thread_state ADD COLUMN working_until INTEGER;
CREATE INDEX connectors_seen ON connectors(last_seen_at) WHERE revoked_at IS NULL;
`;

// Relay tables (ADR 0140): the rows live in the tables engine's own layout (te_tables, te_rows, te_pending,
// versioned by the engine's runner in te_migrations) inside this database; version 8 makes sure that layout
// exists first, so the account trigger can name it. Owner = users.id, holder = agents.id (or `unheld:<id>`
// for a table kept after its agent was removed). The engine's rows carry no foreign keys, so deleting a
// user removes them here, in the same statement as the user (a PostgreSQL store would use foreign keys).
const SCHEMA_V8_RELAY_TABLES = `
${TABLES_MIGRATIONS[0]!.sql}
CREATE TABLE relay_tables (
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  holder TEXT NOT NULL,
  name TEXT NOT NULL,
  last_read_at INTEGER,
  unheld_at INTEGER,
  PRIMARY KEY (user_id, holder, name)
) STRICT;
CREATE INDEX relay_tables_unheld ON relay_tables(unheld_at) WHERE unheld_at IS NOT NULL;
CREATE TABLE relay_agent_state (
  agent_id TEXT PRIMARY KEY REFERENCES agents(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  reads_in_row INTEGER NOT NULL DEFAULT 0,
  handover TEXT
) STRICT;
CREATE INDEX relay_agent_state_user ON relay_agent_state(user_id);
CREATE TRIGGER users_delete_relay_tables AFTER DELETE ON users
BEGIN
  DELETE FROM te_rows WHERE table_id IN (SELECT id FROM te_tables WHERE owner = old.id);
  DELETE FROM te_tables WHERE owner = old.id;
  DELETE FROM te_pending WHERE owner = old.id;
END;
`;

// Management tokens (doc2, ADR 0160): hashes only, cascading from the user like every owned row.
const SCHEMA_V9_MANAGEMENT_TOKENS = `
CREATE TABLE management_tokens (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  scope TEXT NOT NULL DEFAULT 'agents:manage' CHECK (scope = 'agents:manage'),
  created_at INTEGER NOT NULL,
  last_used_at INTEGER,
  revoked_at INTEGER
) STRICT;
CREATE INDEX management_tokens_user ON management_tokens(user_id, created_at);
`;

// Web Push (issue 17, ADR 0150): device subscriptions, the durable push outbox (rows written in the same
// transaction as the message they announce) and per-device thread presence with an expiry, so a phone
// that dies with a thread open stops holding the buzz back.
// A bridged agent's card summary ({name, skills}) as JSON, shown in the agent's settings (ADR 0164).
const SCHEMA_V12_AGENT_CARD = 'ALTER TABLE agents ADD COLUMN card TEXT;';

const SCHEMA_V10_WEB_PUSH = `
CREATE TABLE push_subscriptions (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  endpoint TEXT NOT NULL UNIQUE,
  p256dh TEXT NOT NULL,
  auth TEXT NOT NULL,
  device TEXT,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX push_subscriptions_user ON push_subscriptions(user_id);

CREATE TABLE push_outbox (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  subscription_id TEXT NOT NULL REFERENCES push_subscriptions(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('message', 'revoked')),
  message_id TEXT REFERENCES messages(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_at INTEGER NOT NULL
) STRICT;
CREATE INDEX push_outbox_due ON push_outbox(next_at);
CREATE INDEX push_outbox_subscription ON push_outbox(subscription_id);
CREATE INDEX push_outbox_agent ON push_outbox(agent_id);
CREATE INDEX push_outbox_message ON push_outbox(message_id);
CREATE INDEX push_intents_message ON push_intents(message_id);

CREATE TABLE thread_presence (
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  device TEXT NOT NULL,
  until INTEGER NOT NULL,
  PRIMARY KEY (agent_id, user_id, device)
) STRICT;
`;

// Shared agents (doc2 "Shared-agent resources", ADR 0170): templates and their items, invites, grants
// (`user_id` is the owner on templates, items and invites, the holder on grants, where `owner_id` names the
// giver, so every table answers "rows of this user" the same way). The
// client-safe rule is enforced by the database itself: a trigger refuses a grant or template item for an
// agent whose client_safe is not 1 (RAISE ABORT 'NOT_CLIENT_SAFE', which the store maps to its error).
// At most one live grant per (agent, user): a partial unique index. Revoked grants keep their row (and the
// thread) for 30 days, then the housekeeping job deletes both.
const SCHEMA_V13_SHARED_AGENTS = `
CREATE TABLE share_templates (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  title TEXT NOT NULL,
  shared_by TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  UNIQUE (user_id, name)
) STRICT;

CREATE TABLE share_template_items (
  template_id TEXT NOT NULL REFERENCES share_templates(id) ON DELETE CASCADE,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  theme TEXT NOT NULL DEFAULT '{}',
  first_message TEXT NOT NULL,
  sort INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (template_id, agent_id)
) STRICT;
CREATE INDEX share_template_items_agent ON share_template_items(agent_id);

CREATE TABLE share_invites (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  template_id TEXT NOT NULL REFERENCES share_templates(id) ON DELETE CASCADE,
  token_hash TEXT NOT NULL UNIQUE,
  first_name TEXT,
  created_at INTEGER NOT NULL,
  approved_at INTEGER,
  claimed_at INTEGER,
  claimed_by TEXT REFERENCES users(id) ON DELETE CASCADE
) STRICT;
CREATE INDEX share_invites_owner ON share_invites(user_id);

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
  push_muted INTEGER NOT NULL DEFAULT 0 CHECK (push_muted IN (0, 1)),
  sort INTEGER NOT NULL DEFAULT 0,
  shared_by TEXT NOT NULL,
  granted_at INTEGER NOT NULL,
  revoked_at INTEGER,
  CHECK (user_id <> owner_id)
) STRICT;
CREATE UNIQUE INDEX grants_live ON grants(agent_id, user_id) WHERE revoked_at IS NULL;
CREATE INDEX grants_user ON grants(user_id);
CREATE INDEX grants_owner ON grants(owner_id);
CREATE INDEX grants_revoked ON grants(revoked_at) WHERE revoked_at IS NOT NULL;

CREATE TRIGGER grants_client_safe BEFORE INSERT ON grants
WHEN NOT EXISTS (SELECT 1 FROM agents WHERE id = new.agent_id AND client_safe = 1 AND user_id = new.owner_id)
BEGIN
  SELECT RAISE(ABORT, 'NOT_CLIENT_SAFE');
END;
CREATE TRIGGER share_items_client_safe BEFORE INSERT ON share_template_items
WHEN NOT EXISTS (SELECT 1 FROM agents WHERE id = new.agent_id AND client_safe = 1 AND user_id = new.user_id)
BEGIN
  SELECT RAISE(ABORT, 'NOT_CLIENT_SAFE');
END;
`;

// Housekeeping claims (ADR 0190): one row per job; an instance runs a job only after claiming it for the
// period, so several instances on one database do not repeat the same sweep. The indexes let the age-based
// deletes find their rows without scanning whole tables every pass.
const SCHEMA_V14_HOUSEKEEPING = `
CREATE TABLE housekeeping_claims (
  name TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  until INTEGER NOT NULL
) STRICT;
CREATE INDEX messages_created ON messages(created_at);
CREATE INDEX photos_unattached ON photos(created_at) WHERE message_id IS NULL;
CREATE INDEX app_sessions_expiry ON app_sessions(expires_at);
CREATE INDEX pairing_codes_expiry ON pairing_codes(expires_at);
`;

// Native agents (ADR 0200): the service runs these itself on the operator's model; the row holds the
// starter it came from and the person's instructions (its system prompt). Gone with the agent or the user.
const SCHEMA_V11_NATIVE_AGENTS = `
CREATE TABLE native_agents (
  agent_id TEXT PRIMARY KEY REFERENCES agents(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  template TEXT,
  instructions TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX native_agents_user ON native_agents(user_id);
`;

// The photo quota sums a user's photo bytes on every upload: an index keeps that a range read.
const SCHEMA_V15_PHOTOS_BY_USER = 'CREATE INDEX photos_user ON photos(user_id, bytes);';

// The thread page's version (ADR 0216): a value that changes whenever anything a page shows changes, so a
// built page can be reused while it holds. Triggers move it, so every writer (any repository method, any
// process on this file) does: a message written, changed or removed, a photo attached or removed. They only
// update an existing state row (an upsert per message cost ~8 us, an update ~1 us); a thread without one has
// no version, and nothing is reused for it. A new state row (the first read mark, presence or working
// indicator) gets its version from a trigger. A random value, not a counter: a thread removed and begun
// again (a share revoked and granted anew) never comes back to a version an old page was built at.
const SCHEMA_V16_PAGE_VERSION = `
ALTER TABLE thread_state ADD COLUMN page_version INTEGER;
INSERT INTO thread_state (agent_id, user_id)
  SELECT agent_id, user_id FROM (SELECT DISTINCT agent_id, user_id FROM messages) WHERE true
  ON CONFLICT (agent_id, user_id) DO NOTHING;
UPDATE thread_state SET page_version = random() >> 11;
CREATE TRIGGER thread_state_page_version AFTER INSERT ON thread_state WHEN NEW.page_version IS NULL BEGIN
  UPDATE thread_state SET page_version = random() >> 11 WHERE rowid = NEW.rowid;
END;
CREATE TRIGGER messages_page_insert AFTER INSERT ON messages BEGIN
  UPDATE thread_state SET page_version = random() >> 11 WHERE agent_id = NEW.agent_id AND user_id = NEW.user_id;
END;
CREATE TRIGGER messages_page_update AFTER UPDATE ON messages BEGIN
  UPDATE thread_state SET page_version = random() >> 11
   WHERE agent_id = NEW.agent_id AND user_id = NEW.user_id;
END;
CREATE TRIGGER messages_page_delete AFTER DELETE ON messages BEGIN
  UPDATE thread_state SET page_version = random() >> 11 WHERE agent_id = OLD.agent_id AND user_id = OLD.user_id;
END;
CREATE TRIGGER photos_page_update AFTER UPDATE ON photos BEGIN
  UPDATE thread_state SET page_version = random() >> 11
   WHERE agent_id = NEW.agent_id AND user_id = NEW.user_id;
END;
CREATE TRIGGER photos_page_delete AFTER DELETE ON photos WHEN OLD.message_id IS NOT NULL BEGIN
  UPDATE thread_state SET page_version = random() >> 11 WHERE agent_id = OLD.agent_id AND user_id = OLD.user_id;
END;
`;

// A photo's displayed size, read from its header at upload (issue 38): its signed link carries it so the
// app gives the photo its height before the bytes arrive. Older rows keep NULL (sized once loaded).
const SCHEMA_V17_PHOTO_SIZE = `
ALTER TABLE photos ADD COLUMN width INTEGER;
ALTER TABLE photos ADD COLUMN height INTEGER;
`;

// The page version moves in the rules' own writes (ADR 0241): each write that changes a page carries a
// fresh value the core drew, and sets it in the same transaction. The triggers that moved it go; the
// column and its values stay (a value never comes back, so versions set by the triggers remain valid).
const SCHEMA_V18_PAGE_VERSION_IN_RULES = `
DROP TRIGGER thread_state_page_version;
DROP TRIGGER messages_page_insert;
DROP TRIGGER messages_page_update;
DROP TRIGGER messages_page_delete;
DROP TRIGGER photos_page_update;
DROP TRIGGER photos_page_delete;
`;

// The client-safe rule is checked by the core inside each grant's and template's transaction (ADR 0241);
// the triggers that refused unsafe rows go.
const SCHEMA_V19_CLIENT_SAFE_IN_RULES = `
DROP TRIGGER grants_client_safe;
DROP TRIGGER share_items_client_safe;
`;

/**
 * The service's migrations, to be appended to the host application's list after its own version 1.
 *
 * @example
 * ```ts
 * const all = [{ version: 1, name: 'service-meta', sql: '...' }, ...coreMigrations];
 * ```
 */
export const coreMigrations: readonly CoreMigration[] = [
  { version: 2, name: 'core-schema', sql: SCHEMA_V2 },
  {
    version: 3,
    name: 'agents-by-connector-order',
    // Every tool call lists the connection's agents in this order; without the index SQLite sorts in a
    // temporary B-tree on each call (measured: 16.6 us vs 1.5 us per call, 22% of svc_threads CPU).
    sql: 'CREATE INDEX agents_connector_order ON agents(connector_id, is_default DESC, sort, created_at, id);',
  },
  { version: 4, name: 'oauth', sql: SCHEMA_V4_OAUTH },
  { version: 5, name: 'agent-connections', sql: SCHEMA_V5_AGENT_CONNECTIONS },
  { version: 6, name: 'photo-removals', sql: SCHEMA_V6_PHOTO_REMOVALS },
  { version: 7, name: 'host-transport', sql: SCHEMA_V7_HOST_TRANSPORT },
  { version: 8, name: 'relay-tables', sql: SCHEMA_V8_RELAY_TABLES },
  { version: 9, name: 'management-tokens', sql: SCHEMA_V9_MANAGEMENT_TOKENS },
  { version: 10, name: 'web-push', sql: SCHEMA_V10_WEB_PUSH },
  { version: 11, name: 'native-agents', sql: SCHEMA_V11_NATIVE_AGENTS },
  { version: 12, name: 'agent-card', sql: SCHEMA_V12_AGENT_CARD },
  { version: 13, name: 'shared-agents', sql: SCHEMA_V13_SHARED_AGENTS },
  { version: 14, name: 'housekeeping', sql: SCHEMA_V14_HOUSEKEEPING },
  { version: 15, name: 'photos-by-user', sql: SCHEMA_V15_PHOTOS_BY_USER },
  { version: 16, name: 'thread-page-version', sql: SCHEMA_V16_PAGE_VERSION },
  { version: 17, name: 'photo-size', sql: SCHEMA_V17_PHOTO_SIZE },
  { version: 18, name: 'page-version-in-rules', sql: SCHEMA_V18_PAGE_VERSION_IN_RULES },
  { version: 19, name: 'client-safe-in-rules', sql: SCHEMA_V19_CLIENT_SAFE_IN_RULES },
  { version: 20, name: 'account-time-zone', sql: SCHEMA_V20_ACCOUNT_TIME_ZONE },
  { version: 21, name: 'push-notices', sql: SCHEMA_V21_PUSH_NOTICES },
  { version: 22, name: 'deadlines-and-receipts', sql: SCHEMA_V22_SCREEN_DEADLINES },
  { version: 23, name: 'tasks', sql: SCHEMA_V23_TASKS },
  { version: 24, name: 'answer-keys', sql: SCHEMA_V24_ANSWER_KEYS },
  { version: 25, name: 'withdrawn-screens', sql: SCHEMA_V25_WITHDRAWN_SCREENS },
  { version: 26, name: 'photo-keys', sql: SCHEMA_V26_PHOTO_KEYS },
  { version: 27, name: 'receipt-batches', sql: SCHEMA_V27_RECEIPT_BATCHES },
  { version: 28, name: 'receipt-batch-holders', sql: SCHEMA_V28_RECEIPT_BATCH_HOLDERS },
];

/** Every table these migrations make; the account-deletion test checks each holds no row of the user. */
export const CORE_TABLES = [
  'users',
  'app_sessions',
  'connectors',
  'agents',
  'pairing_codes',
  'pair_attempts',
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
