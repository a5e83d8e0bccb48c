// Migration 12: a screen the agent withdrew (issue 44, ADR 0279), the twin of the SQLite store's version 25:
// `screen_deadlines` learns the `withdrawn` outcome.

/** The outcome's CHECK, with `withdrawn`. */
export const WITHDRAWN_SCREENS_V12 = `
ALTER TABLE screen_deadlines DROP CONSTRAINT screen_deadlines_outcome_check;
ALTER TABLE screen_deadlines ADD CONSTRAINT screen_deadlines_outcome_check
  CHECK (outcome IN ('answered', 'default', 'expired', 'withdrawn'));
`;
