// Migration 7: the person's time zone on the account (ADR 0253), the twin of the SQLite store's version 20.

/**
 * The zone `today` and `now` resolve in for the person's tables: null until a device reports one;
 * `time_zone_pinned` when the person chose it in settings (then the devices' reports leave it alone).
 */
export const ACCOUNT_TIME_ZONE_V7 = `
ALTER TABLE users ADD COLUMN time_zone TEXT;
ALTER TABLE users ADD COLUMN time_zone_pinned BOOLEAN NOT NULL DEFAULT false;
`;
