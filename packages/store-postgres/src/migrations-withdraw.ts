// Migration 12: a screen the agent withdrew (issue 44, ADR 0279), the twin of the SQLite store's version 25:
// `screen_deadlines` learns the `withdrawn` outcome; `screen_offers` holds asks offered to holders (ADR 0280).

/** The outcome's CHECK, with `withdrawn`; the offers table. */
export const WITHDRAWN_SCREENS_V12 = `
ALTER TABLE screen_deadlines DROP CONSTRAINT screen_deadlines_outcome_check;
ALTER TABLE screen_deadlines ADD CONSTRAINT screen_deadlines_outcome_check
  CHECK (outcome IN ('answered', 'default', 'expired', 'withdrawn'));

CREATE TABLE screen_offers (
  screen_id TEXT PRIMARY KEY REFERENCES screens(id) ON DELETE CASCADE,
  origin_id TEXT NOT NULL REFERENCES screens(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  created_at BIGINT NOT NULL
);
CREATE INDEX screen_offers_origin ON screen_offers(origin_id);
CREATE INDEX screen_offers_user ON screen_offers(user_id);
CREATE INDEX screen_offers_agent ON screen_offers(agent_id);
`;
