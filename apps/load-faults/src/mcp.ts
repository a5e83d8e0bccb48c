// One MCP client (the official SDK over Streamable HTTP) holding one connection token, and error kinds.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { TransportError } from './http.js';

export interface ToolReply {
  isError: boolean;
  // biome-ignore lint/suspicious/noExplicitAny: structured results are read field by field
  structured: any;
  text: string;
}

export interface McpSession {
  call(name: string, args: Record<string, unknown>, timeoutMs?: number): Promise<ToolReply>;
  close(): Promise<void>;
}

/**
 * Connects (initialize + initialized: two calls of the connection's `mcp` bucket) and returns a caller.
 *
 * @example
 * ```ts
 * const mcp = await connectMcp(`${base}/functions/v1/svc-mcp`, 'svc_ct_...');
 * const shown = await mcp.call('svc_show', { lines: 'choose "Lunch?" Pasta|Soup' });
 * ```
 */
export async function connectMcp(
  mcpUrl: string,
  token: string,
  options: { name?: string; fetch?: typeof fetch } = {},
): Promise<McpSession> {
  const client = new Client({ name: options.name ?? 'load-faults', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(mcpUrl), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
      ...(options.fetch ? { fetch: options.fetch } : {}),
    }),
  );
  return {
    async call(toolName, args, timeoutMs = 40_000) {
      const r = (await client.callTool({ name: toolName, arguments: args }, undefined, {
        timeout: timeoutMs,
      })) as { isError?: boolean; structuredContent?: unknown; content?: { type: string; text?: string }[] };
      const text = (r.content ?? []).map((c) => c.text ?? '').join('\n');
      return { isError: r.isError === true, structured: r.structuredContent ?? null, text };
    },
    close: () => client.close(),
  };
}

/**
 * A short stable name for a failure, for the error tables: `http_429`, `http_500`, `tool_error`,
 * `ECONNREFUSED`, `timeout`, ... Anything unrecognised is `other`.
 */
export function errorKind(err: unknown): string {
  if (err instanceof TransportError) return err.code === 'TIMEOUT' ? 'timeout' : err.code;
  const e = err as { code?: unknown; message?: unknown; cause?: { code?: unknown } } | null;
  const message = typeof e?.message === 'string' ? e.message : '';
  if (typeof e?.code === 'number') {
    if (e.code === -32001 || /timed out/i.test(message)) return 'timeout';
    if (e.code === 23) return 'timeout'; // DOMException TimeoutError (AbortSignal.timeout)
    if (e.code >= 100 && e.code < 600) return `http_${e.code}`;
    return `rpc_${e.code}`;
  }
  const cause = e?.cause?.code;
  if (typeof cause === 'string') return cause;
  if (typeof e?.code === 'string') return e.code;
  if (/fetch failed/i.test(message)) return 'fetch_failed';
  return 'other';
}
