// Stable error codes of @screen-service/screen-view; the renderer throws only when it is misused.

/** Codes a {@link ScreenViewError} carries. */
export type ScreenViewErrorCode =
  /** An argument has the wrong shape (for example `ops` is not an array). */
  | 'INVALID_ARGUMENT'
  /** No DOM document was given and none is global (server-side use without a DOM). */
  | 'NO_DOCUMENT';

/**
 * The one error class the renderer throws; `code` is stable across versions.
 *
 * @example
 * ```ts
 * try { renderScreen('nope' as never, { onTap }); } catch (e) { if (e instanceof ScreenViewError) e.code; }
 * ```
 */
export class ScreenViewError extends Error {
  readonly code: ScreenViewErrorCode;

  constructor(code: ScreenViewErrorCode, message: string) {
    super(message);
    this.name = 'ScreenViewError';
    this.code = code;
  }
}
