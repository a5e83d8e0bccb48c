// One long-lived MCP server behind many stateless HTTP requests: request ids are remapped so clients never collide.

import {
  type AuthInfo,
  type CallToolResult,
  isJSONRPCRequest,
  type JSONRPCMessage,
  type McpServer,
  type RequestId,
  type Transport,
} from '@modelcontextprotocol/server';
import { canonicalResult, type FastTool, fastToolsOf } from './fast-tools.js';

/** What a dispatched POST carries besides its messages. */
export interface DispatchContext {
  authInfo: AuthInfo;
  /** Aborted when the HTTP request goes away: in-flight handlers are cancelled and nothing is answered. */
  signal?: AbortSignal;
}

/** Feeds JSON-RPC messages to a connected server and collects each request's response. */
export interface Dispatcher {
  /** Responses to the requests among `messages`, in request order; [] when there were only notifications. */
  dispatch(messages: JSONRPCMessage[], ctx: DispatchContext): Promise<JSONRPCMessage[]>;
  /** Requests handed to the server and not yet answered. */
  inFlight(): number;
}

interface Pending {
  clientId: RequestId;
  resolve: (m: JSONRPCMessage) => void;
}

export interface ConnectDispatcherOptions {
  /**
   * Call the hot tools' handlers directly when their arguments pass the precompiled checks (default true);
   * false sends every message through the SDK (the reference the fast path is tested against).
   */
  fastTools?: boolean;
}

/** JSON-RPC error code of a request whose HTTP request closed before it was answered. */
export const REQUEST_CANCELLED = -32800;

// Client notifications that name request ids would reach other callers' requests after the remap; the
// HTTP request closing is the cancel signal in a stateless server.
const DROPPED_NOTIFICATIONS = new Set(['notifications/cancelled', 'notifications/progress']);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return (
    typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype
  );
}

/**
 * The fast tool and its arguments when `m` is a plain `tools/call` of one (params `name` and `arguments`
 * only: no `_meta`, no task) whose arguments the tool's precompiled check accepts; else null (the SDK path).
 */
function fastCall(
  m: JSONRPCMessage,
  tools: ReadonlyMap<string, FastTool>,
): { tool: FastTool; args: Record<string, unknown> } | null {
  const o = m as { method?: unknown; id?: unknown; params?: unknown };
  if (o.method !== 'tools/call' || tools.size === 0) return null;
  if (!(typeof o.id === 'string' || (typeof o.id === 'number' && Number.isInteger(o.id)))) return null;
  if (!isPlainObject(o.params)) return null;
  for (const key in o.params) if (key !== 'name' && key !== 'arguments') return null;
  const name = o.params.name;
  const tool = typeof name === 'string' ? tools.get(name) : undefined;
  if (!tool) return null;
  const args = tool.accept(o.params.arguments);
  return args ? { tool, args } : null;
}

/** A response the server sent (an id with a result or an error, no method). */
function isResponse(m: JSONRPCMessage): m is JSONRPCMessage & { id: RequestId } {
  return !('method' in m) && 'id' in m && ('result' in m || 'error' in m);
}

/**
 * Connects `server` to an in-process transport and returns the dispatcher. The SDK's stateless HTTP
 * transport serves one request per server instance (ADR 0060 measures the cost); this keeps one server.
 *
 * @example
 * ```ts
 * const dispatcher = await connectDispatcher(createSvcMcpServer({ ops }));
 * const [answer] = await dispatcher.dispatch([{ jsonrpc: '2.0', id: 1, method: 'ping' }], ctx);
 * ```
 */
export async function connectDispatcher(
  server: McpServer,
  options: ConnectDispatcherOptions = {},
): Promise<Dispatcher> {
  const fastTools = options.fastTools === false ? new Map<string, FastTool>() : fastToolsOf(server);
  const pending = new Map<string, Pending>();
  let next = 0;
  const transport: Transport = {
    async start() {},
    async close() {
      transport.onclose?.();
    },
    async send(message) {
      // Only responses leave a stateless server: its notifications and requests have no stream to go to.
      if (!isResponse(message)) return;
      const key = String(message.id);
      const p = pending.get(key);
      if (!p) return;
      pending.delete(key);
      p.resolve({ ...message, id: p.clientId } as JSONRPCMessage);
    },
  };
  await server.connect(transport);

  let fastInFlight = 0;
  /** A hot tool called directly; answers as the SDK would (its catch-all error result included). */
  async function callFast(
    tool: FastTool,
    args: Record<string, unknown>,
    id: RequestId,
    ctx: DispatchContext,
  ): Promise<JSONRPCMessage> {
    fastInFlight++;
    const signal = ctx.signal ?? new AbortController().signal;
    try {
      let result: CallToolResult;
      try {
        result = await tool.call(args, { http: { authInfo: ctx.authInfo }, mcpReq: { signal } });
      } catch (err) {
        result = {
          content: [{ type: 'text', text: err instanceof Error ? err.message : String(err) }],
          isError: true,
        };
      }
      if (signal.aborted) {
        return {
          jsonrpc: '2.0',
          id,
          error: { code: REQUEST_CANCELLED, message: 'Request cancelled: the HTTP request closed.' },
        };
      }
      return { result: canonicalResult(result), jsonrpc: '2.0', id } as JSONRPCMessage;
    } finally {
      fastInFlight--;
    }
  }

  return {
    inFlight: () => pending.size + fastInFlight,
    dispatch(messages, ctx) {
      const answers: Promise<JSONRPCMessage>[] = [];
      const mine: string[] = [];
      for (const message of messages) {
        const fast = fastCall(message, fastTools);
        if (fast) {
          answers.push(callFast(fast.tool, fast.args, (message as { id: RequestId }).id, ctx));
        } else if (isJSONRPCRequest(message)) {
          const internal = `svc-${++next}`;
          mine.push(internal);
          answers.push(
            new Promise<JSONRPCMessage>((resolve) => {
              pending.set(internal, { clientId: message.id, resolve });
            }),
          );
          transport.onmessage?.({ ...message, id: internal }, { authInfo: ctx.authInfo });
        } else if ('method' in message && !DROPPED_NOTIFICATIONS.has(message.method)) {
          transport.onmessage?.(message, { authInfo: ctx.authInfo });
        }
      }
      if (answers.length === 0) return Promise.resolve([]);
      // Only calls handed to the SDK are cancelled here (a fast call watches the signal itself).
      if (mine.length === 0) return Promise.all(answers);
      ctx.signal?.addEventListener(
        'abort',
        () => {
          for (const internal of mine) {
            const p = pending.get(internal);
            if (!p) continue;
            pending.delete(internal);
            p.resolve({
              jsonrpc: '2.0',
              id: p.clientId,
              error: { code: REQUEST_CANCELLED, message: 'Request cancelled: the HTTP request closed.' },
            });
            transport.onmessage?.({
              jsonrpc: '2.0',
              method: 'notifications/cancelled',
              params: { requestId: internal, reason: 'HTTP request closed' },
            });
          }
        },
        { once: true },
      );
      return Promise.all(answers);
    },
  };
}
