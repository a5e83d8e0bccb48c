// Migration 24: a person's answers keyed once (issue 45, ADR 0276): the phone queues an answer offline with an
// idempotency key and may send it twice; the second write with the key is refused by this index.

/**
 * Unique per person among person rows (agent rows keep their per-connection index, migration 7). Person rows
 * carried no key before, so the index builds on any existing database.
 */
export const SCHEMA_V24_ANSWER_KEYS = `
CREATE UNIQUE INDEX messages_person_idem ON messages(user_id, idem_key)
  WHERE sender = 'person' AND idem_key IS NOT NULL;
`;
