// Parses a POST body into JSON-RPC messages with the transport's rules (batches, one initialize, ids).
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { jsonDepth, MAX_JSON_DEPTH } from '@screen-service/http-kit';

/** JSON-RPC error codes the transport answers with before any handler runs. */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
/** Messages per batch; more is refused as one invalid request. */
export const MAX_BATCH = 100;

export type BodyParse =
  | { ok: true; messages: JSONRPCMessage[]; batch: boolean; requests: number }
  | { ok: false; code: number; message: string };

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

/**
 * Parses the raw body text. Errors carry the JSON-RPC code and a message saying what to fix.
 *
 * @example
 * ```ts
 * const r = parseJsonRpcBody('{"jsonrpc":"2.0","id":1,"method":"ping"}');
 * if (r.ok) r.messages.length; // 1
 * ```
 */
export function parseJsonRpcBody(text: string): BodyParse {
  let raw: unknown;
  // Before parsing: a deeply nested tool argument would overflow whatever walks it first.
  if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    return {
      ok: false,
      code: PARSE_ERROR,
      message: `Parse error: the body nests deeper than ${MAX_JSON_DEPTH} levels; send a flatter value.`,
    };
  }
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, code: PARSE_ERROR, message: 'Parse error: the body is not valid JSON.' };
  }
  const batch = Array.isArray(raw);
  const list = batch ? (raw as unknown[]) : [raw];
  if (list.length === 0)
    return { ok: false, code: INVALID_REQUEST, message: 'Invalid Request: empty batch.' };
  if (list.length > MAX_BATCH) {
    return {
      ok: false,
      code: INVALID_REQUEST,
      message: `Invalid Request: a batch holds at most ${MAX_BATCH} messages.`,
    };
  }
  let requests = 0;
  let initialize = false;
  for (const [i, m] of list.entries()) {
    const problem = check(m);
    if (problem) {
      return {
        ok: false,
        code: INVALID_REQUEST,
        message: `Invalid Request${batch ? ` (message ${i})` : ''}: ${problem}.`,
      };
    }
    const o = m as { id?: unknown; method?: unknown };
    if (o.method !== undefined && o.id !== undefined) requests++;
    if (o.method === 'initialize') initialize = true;
  }
  if (initialize && list.length > 1) {
    return {
      ok: false,
      code: INVALID_REQUEST,
      message: 'Invalid Request: initialize must be sent alone, not in a batch.',
    };
  }
  return { ok: true, messages: list as JSONRPCMessage[], batch, requests };
}
