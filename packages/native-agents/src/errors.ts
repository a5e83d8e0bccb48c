// Stable error codes of @screen-service/native-agents: why a model call failed, and operator mistakes.

/** Every code this package raises. */
export type NativeErrorCode =
  /** The model endpoint could not be reached (refused, DNS, reset). Retried. */
  | 'MODEL_UNREACHABLE'
  /** The model took longer than the timeout. Retried. */
  | 'MODEL_TIMEOUT'
  /** The model answered 429 or 5xx on every attempt. */
  | 'MODEL_BUSY'
  /** The model refused the request (400, 401, 403, 404...): a setting is wrong; not retried. */
  | 'MODEL_REFUSED'
  /** The model answered something that is not a chat completion. */
  | 'MODEL_BAD_ANSWER'
  /** A model setting (URL, name, limits) is missing or malformed. */
  | 'INVALID_MODEL_CONFIG';

/**
 * A model call that failed, or a model setting that cannot work; `message` says what happened in words a
 * person or an operator can act on.
 *
 * @example
 * ```ts
 * try { await client.complete(messages); } catch (e) { if (e instanceof ModelError) console.log(e.code); }
 * ```
 */
export class ModelError extends Error {
  readonly code: NativeErrorCode;
  /** True when trying again later may work (the endpoint was down, slow or busy). */
  readonly transient: boolean;
  constructor(code: NativeErrorCode, message: string) {
    super(message);
    this.name = 'ModelError';
    this.code = code;
    this.transient = code === 'MODEL_UNREACHABLE' || code === 'MODEL_TIMEOUT' || code === 'MODEL_BUSY';
  }
}
