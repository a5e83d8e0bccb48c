// How the rules' refusals reach the model: as tool results (`isError: true`), never as protocol errors. The
// transport's own refusals are JSON-RPC errors from http-kit's one mapping (`sendJsonRpcError`).
import { asServiceError, type WireCode, wireCode } from '@screen-service/http-kit';

/** A tool result that reports a refusal to the model (`isError: true`), never a protocol error. */
export interface ToolErrorResult {
  [k: string]: unknown;
  isError: true;
  content: { type: 'text'; text: string }[];
  structuredContent: { error: { code: WireCode; message: string; field?: string; details?: unknown } };
}

/**
 * Turns an error from the rules into a tool error the model can act on: `<code>: <message>` as text and
 * the lower-snake code (the same one the HTTP APIs send), field and details (the parser's diagnostics for
 * `INVALID_LINES`) as structured content. A full disk becomes `storage_full`; anything else is rethrown (the
 * SDK reports it as an internal tool error).
 *
 * @example
 * ```ts
 * try { return await handler(); } catch (err) { return toToolError(err); }
 * ```
 */
export function toToolError(thrown: unknown): ToolErrorResult {
  // A full disk is the caller's business too (retry later), not an internal error.
  const err = asServiceError(thrown);
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
