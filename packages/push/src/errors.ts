// Stable error codes of @screen-service/push: configuration mistakes an operator can fix.

/** Every code this package raises. */
export type PushErrorCode =
  | 'INVALID_VAPID_PUBLIC_KEY'
  | 'INVALID_VAPID_PRIVATE_KEY'
  | 'INVALID_VAPID_SUBJECT';

/**
 * A push configuration that cannot work; `message` says which setting and how to fix it.
 *
 * @example
 * ```ts
 * try { checkVapidKeys(keys); } catch (e) { if (e instanceof PushConfigError) console.error(e.code, e.message); }
 * ```
 */
export class PushConfigError extends Error {
  readonly code: PushErrorCode;
  constructor(code: PushErrorCode, message: string) {
    super(message);
    this.name = 'PushConfigError';
    this.code = code;
  }
}
