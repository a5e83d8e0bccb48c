// Migration 11: a person's answers keyed once (issue 45, ADR 0276), the twin of the SQLite store's version 24.

/** Unique per person among person rows; the constraint name is what the store maps to CONFLICT. */
export const ANSWER_KEYS_V11 = `
CREATE UNIQUE INDEX messages_person_idem ON messages(user_id, idem_key)
  WHERE sender = 'person' AND idem_key IS NOT NULL;
`;
