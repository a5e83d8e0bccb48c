// Precompiled acceptance checks for the hot tools, so a well-formed call skips the SDK's zod passes (ADR 0205).

import type { AuthInfo, CallToolResult, McpServer } from '@modelcontextprotocol/server';

/** What a tool handler reads of the SDK's `extra` (the thread tools read nothing else). */
export interface FastExtra {
  http: { authInfo: AuthInfo };
  mcpReq: { signal: AbortSignal };
}

/**
 * A tool the dispatcher may call directly. `accept` returns the arguments exactly as the tool's zod schema
 * would output them, or null whenever the schema might refuse them or shape them differently: such a call
 * goes through the SDK, which answers with its own error text. So a fast call and an SDK call of the same
 * arguments answer the same (a test compares them byte for byte).
 */
export interface FastTool {
  accept(args: unknown): Record<string, unknown> | null;
  call(args: Record<string, unknown>, extra: FastExtra): Promise<CallToolResult>;
}

const FAST_TOOLS = new WeakMap<McpServer, Map<string, FastTool>>();

/** Registers a fast path for `name` on `server` (the SDK registration stays the reference). */
export function addFastTool(server: McpServer, name: string, tool: FastTool): void {
  let table = FAST_TOOLS.get(server);
  if (!table) {
    table = new Map();
    FAST_TOOLS.set(server, table);
  }
  table.set(name, tool);
}

/** The fast tools registered on `server` (empty when none). */
export function fastToolsOf(server: McpServer): ReadonlyMap<string, FastTool> {
  return FAST_TOOLS.get(server) ?? new Map();
}

/** One field of a schema: how to check it. Absent keys are fine unless `required`. */
export type FieldRule =
  | { kind: 'string'; min: number; max: number; required?: boolean }
  | { kind: 'int'; min: number; max: number; required?: boolean };

function fits(rule: FieldRule, v: unknown): boolean {
  if (rule.kind === 'string') return typeof v === 'string' && v.length >= rule.min && v.length <= rule.max;
  // zod 4's .int() takes safe integers only.
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= rule.min && v <= rule.max;
}

/**
 * A check for a flat object schema of strings and integers (z.string().min().max(), z.number().int().min()
 * .max(), each optional unless `required`). Output: the known keys present, in the schema's order, as zod's
 * object parse gives them (unknown keys dropped).
 */
export function compileObjectCheck(shape: Record<string, FieldRule>): FastTool['accept'] {
  const fields = Object.entries(shape);
  return (args) => {
    if (typeof args !== 'object' || args === null || Array.isArray(args)) return null;
    if (Object.getPrototypeOf(args) !== Object.prototype) return null;
    const input = args as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [key, rule] of fields) {
      if (!Object.hasOwn(input, key)) {
        if (rule.required) return null;
        continue;
      }
      const v = input[key];
      if (!fits(rule, v)) return null;
      out[key] = v;
    }
    return out;
  };
}

/** A tool without an input schema: the SDK passes no arguments; a record or nothing is well formed. */
export function acceptNoArguments(args: unknown): Record<string, unknown> | null {
  if (args === undefined) return {};
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return null;
  return Object.getPrototypeOf(args) === Object.prototype ? {} : null;
}

/**
 * The result as the SDK's result check outputs it: `content`, `structuredContent`, `isError` in the
 * schema's order, then anything else, so the JSON on the wire is the same as through the SDK.
 */
export function canonicalResult(r: CallToolResult): CallToolResult {
  const { _meta, content, structuredContent, isError, ...rest } = r;
  return {
    ...(_meta !== undefined ? { _meta } : {}),
    content: content ?? [],
    ...(structuredContent !== undefined ? { structuredContent } : {}),
    ...(isError !== undefined ? { isError } : {}),
    ...rest,
  } as CallToolResult;
}
