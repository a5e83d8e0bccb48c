// Checks a POST body (already read as JSON by http-kit's reader) against the transport's rules: one message or
// a batch, JSON-RPC 2.0 shapes, initialize alone. A refusal is INVALID_INPUT: JSON-RPC's -32600.
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { ServiceError } from '@screen-service/registry/kernel';

/** Messages per batch; more is refused as one invalid request. */
export const MAX_BATCH = 100;

/** The messages of a body the checks let through. */
export interface JsonRpcBody {
  messages: JSONRPCMessage[];
  /** The body was an array (the answer is one too). */
  batch: boolean;
  /** Messages that expect an answer (a method and an id). */
  requests: number;
  /**
   * `tools/call` requests among them: what bucket `mcp` charges. The handshake, lists, pings and notifications
   * cost nothing, so a client that reconnects does not spend its budget on them.
   */
  toolCalls: number;
}

function isId(v: unknown): boolean {
  return typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v));
}

function check(m: unknown): string | null {
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return 'each message must be a JSON object';
  const o = m as Record<string, unknown>;
  if (o.jsonrpc !== '2.0') return 'jsonrpc must be "2.0"';
  if ('method' in o) {
    if (typeof o.method !== 'string' || o.method === '') return 'method must be a non-empty string';
    if ('id' in o && !isId(o.id)) return 'id must be a string or an integer';
    if ('params' in o && (typeof o.params !== 'object' || o.params === null || Array.isArray(o.params))) {
      return 'params must be an object';
    }
    return null;
  }
  if (!isId(o.id) || !('result' in o || 'error' in o))
    return 'a message needs a method, or an id with result or error';
  return null;
}

const invalid = (problem: string) =>
  new ServiceError('INVALID_INPUT', `Invalid Request: ${problem}.`, { field: 'body' });

/**
 * Checks a parsed body and counts its requests.
 *
 * @throws {ServiceError} `INVALID_INPUT` naming what to fix (an empty or oversized batch, a malformed
 * message, initialize in a batch); `INVALID_JSON` when there is no body at all.
 * @example
 * ```ts
 * const { requests, toolCalls } = checkJsonRpcBody({ jsonrpc: '2.0', id: 1, method: 'ping' }); // 1, 0
 * ```
 */
export function checkJsonRpcBody(raw: unknown): JsonRpcBody {
  if (raw === undefined) {
    throw new ServiceError('INVALID_JSON', 'The body is empty: send one JSON-RPC message.', {
      field: 'body',
    });
  }
  const batch = Array.isArray(raw);
  const list = batch ? (raw as unknown[]) : [raw];
  if (list.length === 0) throw invalid('empty batch');
  if (list.length > MAX_BATCH) throw invalid(`a batch holds at most ${MAX_BATCH} messages`);
  let requests = 0;
  let toolCalls = 0;
  let initialize = false;
  for (const [i, m] of list.entries()) {
    const problem = check(m);
    if (problem) throw invalid(`${batch ? `message ${i}: ` : ''}${problem}`);
    const o = m as { id?: unknown; method?: unknown };
    if (o.method !== undefined && o.id !== undefined) {
      requests++;
      if (o.method === 'tools/call') toolCalls++;
    }
    if (o.method === 'initialize') initialize = true;
  }
  if (initialize && list.length > 1) throw invalid('initialize must be sent alone, not in a batch');
  return { messages: list as JSONRPCMessage[], batch, requests, toolCalls };
}
