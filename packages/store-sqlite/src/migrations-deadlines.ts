// Migration 22: screens' deadlines and answers' receipts (issue 40, ADR 0260, 0261), kept apart so
// migrations.ts stays one list.

/**
 * One row per screen shown with a deadline; it goes with its screen (and so with the thread). The partial
 * index keeps the sweeper's "what is due" read on unsettled rows only, however many have settled. Receipts
 * name their answer row without a foreign key: retention may remove the row, the receipt stays with the
 * thread (and shows the row went); they go with the thread, the agent or the account.
 */
export const SCHEMA_V22_SCREEN_DEADLINES = `
CREATE TABLE screen_deadlines (
  screen_id TEXT PRIMARY KEY REFERENCES screens(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  due_at INTEGER NOT NULL,
  next_at INTEGER NOT NULL,
  step INTEGER NOT NULL DEFAULT 0,
  plan TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  settled_at INTEGER,
  outcome TEXT CHECK (outcome IN ('answered', 'default', 'expired'))
) STRICT;
CREATE INDEX screen_deadlines_due ON screen_deadlines(next_at) WHERE settled_at IS NULL;

CREATE TABLE answer_receipts (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  message_id TEXT NOT NULL,
  kid TEXT NOT NULL,
  jws TEXT NOT NULL,
  hash TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (agent_id, user_id, seq)
) STRICT;
CREATE INDEX answer_receipts_message ON answer_receipts(message_id);

CREATE TABLE receipt_keys (
  kid TEXT PRIMARY KEY,
  public_jwk TEXT NOT NULL,
  sealed_private TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  retired_at INTEGER
) STRICT;
`;
