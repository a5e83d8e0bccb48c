// An A2A client for one agent: send, stream, read and resubscribe, in the card's protocol version.
import type { AgentCardInfo } from './card.js';
import { codecFor, type WireCodec } from './codec.js';
import type { A2AEvent, Message, Task } from './model.js';
import { callRpc, type RpcTarget, streamRpc } from './rpc.js';

/** Options for {@link createA2AClient}. */
export interface A2AClientOptions {
  /** Extra headers on every call (e.g. the `Authorization` header given at `pair`). */
  headers?: Record<string, string>;
  /** Extension URIs to activate (sent as `A2A-Extensions` on 1.0, `X-A2A-Extensions` on 0.3). */
  extensions?: string[];
  fetch?: typeof fetch;
}

/** The four operations the bridge uses, in neutral shapes. */
export interface A2AClient {
  readonly codec: WireCodec;
  /** Sends a message; `blocking: false` returns as soon as the task exists. */
  send(message: Message, blocking: boolean, signal?: AbortSignal): Promise<A2AEvent>;
  /** Sends a message and yields the stream's events. */
  stream(message: Message, signal?: AbortSignal): AsyncGenerator<A2AEvent, void, undefined>;
  /** Reads a task. */
  getTask(taskId: string, signal?: AbortSignal): Promise<Task>;
  /** Resubscribes to a task's stream. */
  subscribe(taskId: string, signal?: AbortSignal): AsyncGenerator<A2AEvent, void, undefined>;
}

/**
 * Creates a client for the agent a card describes.
 *
 * @example
 * ```ts
 * const client = createA2AClient(await fetchAgentCard(url));
 * const first = await client.send({ messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] }, true);
 * ```
 */
export function createA2AClient(card: AgentCardInfo, options: A2AClientOptions = {}): A2AClient {
  const codec = codecFor(card.protocolVersion);
  const target: RpcTarget = {
    endpoint: card.endpoint,
    headers: { ...codec.headers(card.versionHeader, options.extensions ?? []), ...options.headers },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };
  async function* events(method: string, params: unknown, signal?: AbortSignal) {
    for await (const result of streamRpc(target, method, params, signal)) yield codec.decodeEvent(result);
  }
  return {
    codec,
    async send(message, blocking, signal) {
      return codec.decodeEvent(
        await callRpc(target, codec.methods.send, codec.sendParams(message, blocking), signal),
      );
    },
    stream(message, signal) {
      return events(codec.methods.stream, codec.sendParams(message, true), signal);
    },
    async getTask(taskId, signal) {
      const event = codec.decodeEvent(
        await callRpc(target, codec.methods.get, codec.taskParams(taskId), signal),
      );
      if (event.type !== 'task') {
        return { id: taskId, contextId: '', state: 'unknown', artifacts: [], history: [] };
      }
      return event.task;
    },
    subscribe(taskId, signal) {
      return events(codec.methods.subscribe, codec.taskParams(taskId), signal);
    },
  };
}
