// Stable error codes of the multi-instance parts (notifier, limits, composition).

/** Codes of {@link ScaleError}. */
export type ScaleErrorCode = 'INVALID_CHANNEL' | 'INVALID_DATABASE_URL' | 'POSTGRES_UNAVAILABLE';

/** A misuse or an unreachable database, with a message naming the fix. */
export class ScaleError extends Error {
  readonly code: ScaleErrorCode;
  constructor(code: ScaleErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ScaleError';
    this.code = code;
  }
}
