// Migration 9: screens' deadlines (issue 40, ADR 0260), the twin of the SQLite store's version 22.

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
`;
