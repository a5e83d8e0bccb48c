// Stable error codes of the PostgreSQL store (opening, migrating); the rules' own errors stay ServiceError.

/** Every code the store's set-up can raise. Never renamed once shipped; new ones are appended. */
export type PostgresStoreErrorCode = 'INVALID_OPTIONS' | 'INVALID_MIGRATIONS' | 'SCHEMA_TOO_NEW';

/**
 * The store's set-up error: `code` is stable, `message` says what is wrong and how to fix it.
 *
 * @example
 * ```ts
 * try { await openPostgresStore({ url }); }
 * catch (e) { if (e instanceof PostgresStoreError && e.code === 'SCHEMA_TOO_NEW') console.error(e.message); }
 * ```
 */
export class PostgresStoreError extends Error {
  readonly code: PostgresStoreErrorCode;
  constructor(code: PostgresStoreErrorCode, message: string) {
    super(message);
    this.name = 'PostgresStoreError';
    this.code = code;
  }
}
