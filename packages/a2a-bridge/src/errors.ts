// Stable error codes of the bridge; every error names what went wrong and the next step.

/** Every code a {@link BridgeError} can carry. Stable: callers may switch on them. */
export type BridgeErrorCode =
  | 'INVALID_CARD_URL'
  | 'CARD_FETCH_FAILED'
  | 'INVALID_CARD'
  | 'CARD_NO_JSONRPC'
  | 'CARD_VERSION_UNSUPPORTED'
  | 'CARD_ENDPOINT_ELSEWHERE'
  | 'AGENT_FAILING'
  | 'AGENT_UNREACHABLE'
  | 'RPC_HTTP_ERROR'
  | 'RPC_ERROR'
  | 'RPC_BAD_RESPONSE'
  | 'STREAM_DROPPED'
  | 'INVALID_STATE_FILE'
  | 'INVALID_OUTBOX_ENTRY'
  | 'LINK_FAILED'
  | 'INVALID_WEBHOOK_URL'
  | 'NOT_PAIRED'
  | 'SERVICE_REFUSED'
  | 'UNKNOWN_AGENT';

/**
 * The one error class of the bridge. `code` is stable; `message` says what is wrong and what to do.
 *
 * @example
 * ```ts
 * try { await fetchAgentCard('http://localhost:9/'); }
 * catch (e) { if (e instanceof BridgeError && e.code === 'CARD_FETCH_FAILED') console.error(e.message); }
 * ```
 */
export class BridgeError extends Error {
  readonly code: BridgeErrorCode;
  /** The JSON-RPC error code when `code` is `RPC_ERROR`. */
  readonly rpcCode: number | undefined;

  constructor(code: BridgeErrorCode, message: string, options: { cause?: unknown; rpcCode?: number } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'BridgeError';
    this.code = code;
    this.rpcCode = options.rpcCode;
  }
}

/** A2A JSON-RPC error codes the bridge reacts to (the same numbers in 1.0 and 0.3). */
export const A2A_RPC_CODES = {
  taskNotFound: -32001,
  unsupportedOperation: -32004,
  versionNotSupported: -32009,
} as const;
