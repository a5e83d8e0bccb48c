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
`;
