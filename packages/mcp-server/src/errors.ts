// Stable codes of the tool server's refusals: HTTP-level ones (before any tool runs) and how rule errors become tool errors.
import { isServiceError } from '@screen-service/service-core';

/** Codes of HTTP-level refusals; the body is `{"error": "<lower_snake code>", "message": "..."}`. */
export type McpServerErrorCode =
  | 'UNAUTHORIZED'
  | 'NOT_AN_MCP_CONNECTOR'
  | 'CONNECTION_REVOKED'
  | 'SUSPENDED'
  | 'HOST_NOT_ALLOWED'
  | 'RATE_LIMITED'
  | 'METHOD_NOT_ALLOWED';

/**
 * An HTTP-level refusal: `status`, the wire `error` code, and headers to send with it.
 *
 * @example
 * ```ts
 * const e = new McpHttpError('RATE_LIMITED', 429, 'Too many calls; retry in 2 s.', { 'retry-after': '2' });
 * e.body(); // { error: 'rate_limited', message: 'Too many calls; retry in 2 s.' }
 * ```
 */
export class McpHttpError extends Error {
  readonly code: McpServerErrorCode;
  readonly status: number;
  readonly headers: Record<string, string>;
  constructor(
    code: McpServerErrorCode,
    status: number,
    message: string,
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'McpHttpError';
    this.code = code;
    this.status = status;
    this.headers = headers;
  }
  /** The JSON body sent with the status. */
  body(): { error: string; message: string } {
    return { error: this.code.toLowerCase(), message: this.message };
  }
}

/** A tool result that reports a refusal to the model (`isError: true`), never a protocol error. */
export interface ToolErrorResult {
  [k: string]: unknown;
  isError: true;
  content: { type: 'text'; text: string }[];
  structuredContent: { error: { code: string; message: string; field?: string; details?: unknown } };
}

/**
 * Turns an error from the rules into a tool error the model can act on: `<CODE>: <message>` as text and
 * the code, field and details (the parser's diagnostics for `INVALID_LINES`) as structured content.
 * Anything else is rethrown (the SDK reports it as an internal tool error).
 *
 * @example
 * ```ts
 * try { return await handler(); } catch (err) { return toToolError(err); }
 * ```
 */
export function toToolError(err: unknown): ToolErrorResult {
  if (!isServiceError(err)) throw err;
  const error: ToolErrorResult['structuredContent']['error'] = { code: err.code, message: err.message };
  if (err.field !== undefined) error.field = err.field;
  if (err.details !== undefined) error.details = err.details;
  return {
    isError: true,
    content: [{ type: 'text', text: `${err.code}: ${err.message}` }],
    structuredContent: { error },
  };
}
