// Stable error codes of @screen-service/theme; thrown only when the API is misused.

/** Every code a {@link ThemeError} can carry. Codes are stable: match on them, not on messages. */
export type ThemeErrorCode =
  | 'INVALID_HEX'
  | 'INVALID_HANDLE'
  | 'INVALID_TIMESTAMP'
  | 'UNKNOWN_PRESET'
  | 'INVALID_CONTRAST_TARGET';

/**
 * The one error class of this package. Untrusted input (a look, a commands list) is cleaned, never
 * thrown on; a `ThemeError` means the calling code passed something the API does not take.
 *
 * @example
 * ```ts
 * try {
 *   contrastRatio('#fff', '#000000');
 * } catch (error) {
 *   if (error instanceof ThemeError && error.code === 'INVALID_HEX') console.log(error.message);
 * }
 * ```
 */
export class ThemeError extends Error {
  readonly code: ThemeErrorCode;

  constructor(code: ThemeErrorCode, message: string) {
    super(message);
    this.name = 'ThemeError';
    this.code = code;
  }
}
