// Stable codes of the tool server's refusals: HTTP-level ones (before any tool runs) and how rule errors become tool errors.
import { fromStorageError, SERVICE_ERROR_STATUS, wireCode } from '@screen-service/http-kit';
import { isServiceError, type ServiceErrorCode } from '@screen-service/registry/kernel';

/** The JSON-RPC error code an HTTP-level refusal carries (no request ran, so `id` is null). */
export const RPC_PARSE_ERROR = -32700;
export const RPC_INVALID_REQUEST = -32600;
/** Transport refusals that are not about the JSON-RPC text (auth, host, rate, media types). */
export const RPC_SERVER_REFUSAL = -32000;
export const RPC_INTERNAL_ERROR = -32603;

/** The one body of every HTTP-level refusal of the tool server (ADR 0095). */
export interface McpErrorBody {
  jsonrpc: '2.0';
  id: null;
  error: { code: number; message: string; data: { error: string } };
}

/**
 * An HTTP-level refusal (before any tool runs): the status comes from the service's one error table, the
 * body is a JSON-RPC error without an id whose `data.error` is the stable lower-snake code.
 *
 * @example
 * ```ts
 * const e = new McpHttpError('RATE_LIMITED', 'Too many calls; retry in 2 s.', { headers: { 'retry-after': '2' } });
 * e.status; // 429
 * e.body(); // { jsonrpc: '2.0', id: null, error: { code: -32000, message: '...', data: { error: 'rate_limited' } } }
 * ```
 */
export class McpHttpError extends Error {
  readonly code: ServiceErrorCode;
  readonly status: number;
  readonly rpcCode: number;
  readonly headers: Record<string, string>;
  constructor(
    code: ServiceErrorCode,
    message: string,
    options: { headers?: Record<string, string>; rpcCode?: number } = {},
  ) {
    super(message);
    this.name = 'McpHttpError';
    this.code = code;
    this.status = SERVICE_ERROR_STATUS[code];
    this.rpcCode = options.rpcCode ?? rpcCodeOf(code);
    this.headers = options.headers ?? {};
  }
  /** The JSON body sent with the status. */
  body(): McpErrorBody {
    return errorBody(this.rpcCode, this.message, wireCode(this.code));
  }
}

function rpcCodeOf(code: ServiceErrorCode): number {
  if (code === 'INVALID_JSON') return RPC_PARSE_ERROR;
  if (code === 'INVALID_INPUT' || code === 'BODY_TOO_LARGE') return RPC_INVALID_REQUEST;
  return RPC_SERVER_REFUSAL;
}

/** The body of a refusal, for the few answers that are not an McpHttpError (the 500). */
export function errorBody(rpcCode: number, message: string, error: string): McpErrorBody {
  return { jsonrpc: '2.0', id: null, error: { code: rpcCode, message, data: { error } } };
}

/** A tool result that reports a refusal to the model (`isError: true`), never a protocol error. */
export interface ToolErrorResult {
  [k: string]: unknown;
  isError: true;
  content: { type: 'text'; text: string }[];
  structuredContent: { error: { code: string; message: string; field?: string; details?: unknown } };
}

/**
 * Turns an error from the rules into a tool error the model can act on: `<code>: <message>` as text and
 * the lower-snake code (the same one the HTTP APIs send), field and details (the parser's diagnostics for `INVALID_LINES`) as structured content.
 * A full disk becomes `storage_full`; anything else is rethrown (the SDK reports it as an internal tool error).
 *
 * @example
 * ```ts
 * try { return await handler(); } catch (err) { return toToolError(err); }
 * ```
 */
export function toToolError(thrown: unknown): ToolErrorResult {
  // A full disk is the caller's business too (retry later), not an internal error.
  const err = isServiceError(thrown) ? thrown : fromStorageError(thrown);
  if (!err) throw thrown;
  const code = wireCode(err.code);
  const error: ToolErrorResult['structuredContent']['error'] = { code, message: err.message };
  if (err.field !== undefined) error.field = err.field;
  if (err.details !== undefined) error.details = err.details;
  return {
    isError: true,
    content: [{ type: 'text', text: `${code}: ${err.message}` }],
    structuredContent: { error },
  };
}
