// Migration 8: the notifications each device was sent (issue 39, ADR 0257), the twin of the SQLite store's
// version 21; the outbox learns the `stale` kind (the quiet replacement of an answered screen's notification).

/** Notices: one row per notification sent; a one-tap screen's row holds its answer token's hash. */
export const PUSH_NOTICES_V8 = `
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
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  used_at BIGINT,
  closed_at BIGINT
);
CREATE INDEX push_notices_open_screen ON push_notices(screen_id) WHERE closed_at IS NULL;
CREATE INDEX push_notices_device ON push_notices(subscription_id, agent_id, created_at);
CREATE INDEX push_notices_message ON push_notices(message_id);
CREATE INDEX push_notices_user ON push_notices(user_id);
ALTER TABLE push_outbox DROP CONSTRAINT push_outbox_kind_check,
  ADD CONSTRAINT push_outbox_kind_check CHECK (kind IN ('message', 'revoked', 'stale'));

-- Attention (issue 39, ADR 0258): the person's quiet hours (minutes after local midnight, in the account's
-- time zone), whether urgent asks break through, and how many buzzes that need no answer one agent may
-- send per hour (0: no limit). No row: the defaults (no quiet hours, urgent allowed, one per hour).
CREATE TABLE push_settings (
  user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  quiet_start INTEGER CHECK (quiet_start BETWEEN 0 AND 1439),
  quiet_end INTEGER CHECK (quiet_end BETWEEN 0 AND 1439),
  allow_urgent BOOLEAN NOT NULL DEFAULT true,
  plain_per_hour INTEGER NOT NULL DEFAULT 1 CHECK (plain_per_hour >= 0),
  updated_at BIGINT NOT NULL
);
-- The app in front of the person on a device (any view, visible), renewed while it is: no buzz meanwhile.
CREATE TABLE person_presence (
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  device TEXT NOT NULL,
  until BIGINT NOT NULL,
  PRIMARY KEY (user_id, device)
);
`;
