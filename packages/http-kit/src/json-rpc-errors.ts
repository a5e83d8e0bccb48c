// The tool server's error shape (ADRs 0095, 0242): a JSON-RPC error object without an id, as the MCP
// Streamable HTTP transport allows for a refusal before any message runs, on every failure of its endpoint.
import type { ServerResponse } from 'node:http';
import type { ServiceErrorCode } from '@screen-service/registry/kernel';
import type { WireCode } from './error-table.js';
import { toHttpError, writeRefusal } from './http-errors.js';

/** JSON-RPC 2.0's code for a body that is not JSON. */
export const RPC_PARSE_ERROR = -32700;
/** JSON-RPC 2.0's code for a body that is not a valid request (and for one too large to read). */
export const RPC_INVALID_REQUEST = -32600;
/** Every other refusal of the transport: credentials, Host, rate, media types, method (implementation-defined range). */
export const RPC_SERVER_REFUSAL = -32000;
/** JSON-RPC 2.0's code for our own failure. */
export const RPC_INTERNAL_ERROR = -32603;

/** The body of every HTTP-level refusal of the tool server; `data.error` is the stable lower-snake code. */
export interface JsonRpcErrorBody {
  jsonrpc: '2.0';
  id: null;
  error: { code: number; message: string; data: { error: WireCode; field?: string } };
}

/** A refusal of the tool server ready for the wire. */
export interface JsonRpcHttpError {
  status: number;
  code: ServiceErrorCode | null;
  body: JsonRpcErrorBody;
}

function rpcCodeOf(code: ServiceErrorCode | null): number {
  if (code === null) return RPC_INTERNAL_ERROR;
  if (code === 'INVALID_JSON') return RPC_PARSE_ERROR;
  if (code === 'INVALID_INPUT' || code === 'BODY_TOO_LARGE') return RPC_INVALID_REQUEST;
  return RPC_SERVER_REFUSAL;
}

/**
 * Maps any thrown value to the tool server's shape: the status and the code from the one table (as
 * {@link toHttpError}), the JSON-RPC code by kind (`-32700` bad JSON, `-32600` an invalid or oversized
 * request, `-32000` any other refusal, `-32603` our own failure, whose message is generic).
 *
 * @example
 * ```ts
 * toJsonRpcError(new ServiceError('RATE_LIMITED', 'Too many calls; retry in 2 s.')).body;
 * // { jsonrpc: '2.0', id: null, error: { code: -32000, message: '...', data: { error: 'rate_limited' } } }
 * ```
 */
export function toJsonRpcError(err: unknown): JsonRpcHttpError {
  const wire = toHttpError(err);
  const data: JsonRpcErrorBody['error']['data'] = { error: wire.body.error as WireCode };
  if (wire.body.field !== undefined) data.field = wire.body.field;
  return {
    status: wire.status,
    code: wire.code,
    body: {
      jsonrpc: '2.0',
      id: null,
      error: { code: rpcCodeOf(wire.code), message: wire.body.message, data },
    },
  };
}

/**
 * Answers `res` with {@link toJsonRpcError}'s status and body, `Retry-After` on a rate limit, and on a 401
 * `challenge` (the tool server's `Bearer resource_metadata="..."`) unless one is set. Returns the mapped error.
 *
 * @example
 * ```ts
 * sendJsonRpcError(res, new ServiceError('METHOD_NOT_ALLOWED', 'POST JSON-RPC messages.'));
 * ```
 */
export function sendJsonRpcError(res: ServerResponse, err: unknown, challenge = 'Bearer'): JsonRpcHttpError {
  const wire = toJsonRpcError(err);
  writeRefusal(res, wire.status, wire.body, err, challenge);
  return wire;
}
