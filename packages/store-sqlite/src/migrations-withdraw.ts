// Migration 25: a screen the agent withdrew (issue 44, ADR 0279), and asks offered to a shared agent's holders
// (issue 40, ADR 0280). Its end is kept where a screen's deadline
// keeps one: `screen_deadlines` learns the `withdrawn` outcome (a screen without a deadline gets a row that
// is settled at once). SQLite cannot change a CHECK in place, so the table is rebuilt (nothing refers to it).

/** `screen_deadlines` with `withdrawn` among its outcomes (rows, index and cascade as before); `screen_offers`. */
export const SCHEMA_V25_WITHDRAWN_SCREENS = `
CREATE TABLE screen_deadlines_v25 (
  screen_id TEXT PRIMARY KEY REFERENCES screens(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  due_at INTEGER NOT NULL,
  next_at INTEGER NOT NULL,
  step INTEGER NOT NULL DEFAULT 0,
  plan TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  settled_at INTEGER,
  outcome TEXT CHECK (outcome IN ('answered', 'default', 'expired', 'withdrawn'))
) STRICT;
INSERT INTO screen_deadlines_v25 SELECT screen_id, user_id, agent_id, due_at, next_at, step, plan, created_at,
  settled_at, outcome FROM screen_deadlines;
DROP TABLE screen_deadlines;
ALTER TABLE screen_deadlines_v25 RENAME TO screen_deadlines;
CREATE INDEX screen_deadlines_due ON screen_deadlines(next_at) WHERE settled_at IS NULL;

-- One row per screen an escalation showed in a holder's thread: its ask's own screen, so the first answer
-- of either withdraws the others. It goes with either screen (and so with either thread).
CREATE TABLE screen_offers (
  screen_id TEXT PRIMARY KEY REFERENCES screens(id) ON DELETE CASCADE,
  origin_id TEXT NOT NULL REFERENCES screens(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX screen_offers_origin ON screen_offers(origin_id);
CREATE INDEX screen_offers_user ON screen_offers(user_id);
CREATE INDEX screen_offers_agent ON screen_offers(agent_id);
`;
