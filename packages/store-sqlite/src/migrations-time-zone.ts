// Migration 20: the person's time zone on the account (ADR 0253), kept apart so migrations.ts stays one list.

/**
 * The zone `today` and `now` resolve in for the person's tables: null until a device reports one;
 * `time_zone_pinned` when the person chose it in settings (then the devices' reports leave it alone).
 */
export const SCHEMA_V20_ACCOUNT_TIME_ZONE = `
ALTER TABLE users ADD COLUMN time_zone TEXT;
ALTER TABLE users ADD COLUMN time_zone_pinned INTEGER NOT NULL DEFAULT 0 CHECK (time_zone_pinned IN (0, 1));
`;
