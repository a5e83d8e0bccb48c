// Migration 22: screens' deadlines (issue 40, ADR 0260), kept apart so migrations.ts stays one list.

/**
 * One row per screen shown with a deadline; it goes with its screen (and so with the thread). The partial
 * index keeps the sweeper's "what is due" read on unsettled rows only, however many have settled.
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
`;
