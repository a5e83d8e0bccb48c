// Migration 9: screens' deadlines and answers' receipts (issue 40, ADR 0260, 0261), the twin of the SQLite
// store's version 22.

/**
 * One row per screen shown with a deadline; it goes with its screen. The partial index keeps the sweeper's
 * "what is due" read on unsettled rows only.
 */
export const SCREEN_DEADLINES_V9 = `
CREATE TABLE screen_deadlines (
  screen_id TEXT PRIMARY KEY REFERENCES screens(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  due_at BIGINT NOT NULL,
  next_at BIGINT NOT NULL,
  step INTEGER NOT NULL DEFAULT 0,
  plan TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  settled_at BIGINT,
  outcome TEXT CHECK (outcome IN ('answered', 'default', 'expired'))
);
CREATE INDEX screen_deadlines_due ON screen_deadlines(next_at) WHERE settled_at IS NULL;
CREATE INDEX screen_deadlines_user ON screen_deadlines(user_id);
CREATE INDEX screen_deadlines_agent ON screen_deadlines(agent_id);

CREATE TABLE answer_receipts (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  seq BIGINT NOT NULL,
  message_id TEXT NOT NULL,
  kid TEXT NOT NULL,
  jws TEXT NOT NULL,
  hash TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  UNIQUE (agent_id, user_id, seq)
);
CREATE INDEX answer_receipts_message ON answer_receipts(message_id);
CREATE INDEX answer_receipts_user ON answer_receipts(user_id);

CREATE TABLE receipt_keys (
  kid TEXT PRIMARY KEY,
  public_jwk TEXT NOT NULL,
  sealed_private TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  retired_at BIGINT
);
`;
