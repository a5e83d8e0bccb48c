// Migration 13: a photo upload keyed once per person (issue 45, ADR 0287), the twin of the SQLite store's
// version 26.

/** The key column and its unique index; the index name is what the store maps to CONFLICT. */
export const PHOTO_KEYS_V13 = `
ALTER TABLE photos ADD COLUMN idem_key TEXT;
CREATE UNIQUE INDEX photos_user_idem ON photos(user_id, idem_key) WHERE idem_key IS NOT NULL;
`;
