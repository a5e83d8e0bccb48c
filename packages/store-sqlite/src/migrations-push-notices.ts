// Migration 21: the notifications each device was sent (issue 39, ADR 0257), kept apart so migrations.ts
// stays one list; the person's attention settings and presence (ADR 0258); and the outbox learns the `stale` kind (a quiet replacement of an answered screen's
// notification). SQLite cannot change a CHECK in place, so the outbox is rebuilt (it has no dependants).

/** Notices: one row per notification sent; a one-tap screen's row holds its answer token's hash. */
export const SCHEMA_V21_PUSH_NOTICES = `
CREATE TABLE push_notices (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  subscription_id TEXT NOT NULL REFERENCES push_subscriptions(id) ON DELETE CASCADE,
  message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  screen_id TEXT,
  token_hash TEXT UNIQUE,
  tap_id TEXT,
  choices TEXT NOT NULL DEFAULT '[]',
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER,
  closed_at INTEGER
) STRICT;
CREATE INDEX push_notices_open_screen ON push_notices(screen_id) WHERE closed_at IS NULL;
CREATE INDEX push_notices_device ON push_notices(subscription_id, agent_id, created_at);
CREATE INDEX push_notices_message ON push_notices(message_id);
CREATE INDEX push_notices_user ON push_notices(user_id);

CREATE TABLE push_outbox_v21 (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  subscription_id TEXT NOT NULL REFERENCES push_subscriptions(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('message', 'revoked', 'stale')),
  message_id TEXT REFERENCES messages(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_at INTEGER NOT NULL
) STRICT;
INSERT INTO push_outbox_v21 SELECT id, user_id, agent_id, subscription_id, kind, message_id, created_at, attempts, next_at
  FROM push_outbox;
DROP TABLE push_outbox;
ALTER TABLE push_outbox_v21 RENAME TO push_outbox;
CREATE INDEX push_outbox_due ON push_outbox(next_at);
CREATE INDEX push_outbox_subscription ON push_outbox(subscription_id);
CREATE INDEX push_outbox_agent ON push_outbox(agent_id);
CREATE INDEX push_outbox_message ON push_outbox(message_id);

-- Attention (issue 39, ADR 0258): the person's quiet hours (minutes after local midnight, in the account's
-- time zone), whether urgent asks break through, and how many buzzes that need no answer one agent may
-- send per hour (0: no limit). No row: the defaults (no quiet hours, urgent allowed, one per hour).
CREATE TABLE push_settings (
  user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  quiet_start INTEGER CHECK (quiet_start BETWEEN 0 AND 1439),
  quiet_end INTEGER CHECK (quiet_end BETWEEN 0 AND 1439),
  allow_urgent INTEGER NOT NULL DEFAULT 1 CHECK (allow_urgent IN (0, 1)),
  plain_per_hour INTEGER NOT NULL DEFAULT 1 CHECK (plain_per_hour >= 0),
  updated_at INTEGER NOT NULL
) STRICT;
-- The app in front of the person on a device (any view, visible), renewed while it is: no buzz meanwhile.
CREATE TABLE person_presence (
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  device TEXT NOT NULL,
  until INTEGER NOT NULL,
  PRIMARY KEY (user_id, device)
) STRICT;
`;
