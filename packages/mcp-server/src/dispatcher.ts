// One long-lived MCP server behind many stateless HTTP requests: request ids are remapped so clients never collide.

import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/** What a dispatched POST carries besides its messages. */
export interface DispatchContext {
  authInfo: AuthInfo;
  requestInfo: NonNullable<MessageExtraInfo['requestInfo']>;
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

/** JSON-RPC error code of a request whose HTTP request closed before it was answered. */
export const REQUEST_CANCELLED = -32800;

// Client notifications that name request ids would reach other callers' requests after the remap; the
// HTTP request closing is the cancel signal in a stateless server.
const DROPPED_NOTIFICATIONS = new Set(['notifications/cancelled', 'notifications/progress']);

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
export async function connectDispatcher(server: McpServer): Promise<Dispatcher> {
  const pending = new Map<string, Pending>();
  let next = 0;
  const transport: Transport = {
    async start() {},
    async close() {
      transport.onclose?.();
    },
    async send(message) {
      // Only responses leave a stateless server: its notifications and requests have no stream to go to.
      if (!isJSONRPCResultResponse(message) && !isJSONRPCErrorResponse(message)) return;
      const key = String(message.id);
      const p = pending.get(key);
      if (!p) return;
      pending.delete(key);
      p.resolve({ ...message, id: p.clientId } as JSONRPCMessage);
    },
  };
  await server.connect(transport);

  return {
    inFlight: () => pending.size,
    dispatch(messages, ctx) {
      const answers: Promise<JSONRPCMessage>[] = [];
      const mine: string[] = [];
      for (const message of messages) {
        if (isJSONRPCRequest(message)) {
          const internal = `svc-${++next}`;
          mine.push(internal);
          answers.push(
            new Promise<JSONRPCMessage>((resolve) => {
              pending.set(internal, { clientId: message.id, resolve });
            }),
          );
          transport.onmessage?.({ ...message, id: internal }, ctx);
        } else if ('method' in message && !DROPPED_NOTIFICATIONS.has(message.method)) {
          transport.onmessage?.(message, ctx);
        }
      }
      if (mine.length === 0) return Promise.resolve([]);
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
