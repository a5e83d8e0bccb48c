// Migration 26: a photo upload keyed once per person (issue 45, ADR 0287): a phone resends an upload whose
// answer it never heard with the same key, and this index keeps the second row out.

/** The key column (null for uploads without one, and every older row) and its unique index per person. */
export const SCHEMA_V26_PHOTO_KEYS = `
ALTER TABLE photos ADD COLUMN idem_key TEXT;
CREATE UNIQUE INDEX photos_user_idem ON photos(user_id, idem_key) WHERE idem_key IS NOT NULL;
`;
