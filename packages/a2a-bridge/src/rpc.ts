// JSON-RPC 2.0 over HTTP for A2A: one call, or a call answered by a Server-Sent Events stream.

import { createSseParser } from '@screen-service/io-kit/sse';
import { BridgeError } from './errors.js';

/** Where and how to call: the endpoint, headers for every call, and the fetch to use. */
export interface RpcTarget {
  endpoint: string;
  headers: Record<string, string>;
  fetch?: typeof fetch;
}

let nextId = 1;

function rpcError(error: unknown, method: string): BridgeError {
  const e = (typeof error === 'object' && error !== null ? error : {}) as {
    code?: unknown;
    message?: unknown;
  };
  const code = typeof e.code === 'number' ? e.code : 0;
  const text = typeof e.message === 'string' ? e.message : JSON.stringify(error);
  return new BridgeError('RPC_ERROR', `the agent refused ${method} (${code}): ${text}`, { rpcCode: code });
}

// Unwraps one JSON-RPC response object: its result, or a thrown RPC_ERROR.
function unwrap(body: unknown, method: string): unknown {
  if (typeof body !== 'object' || body === null) {
    throw new BridgeError(
      'RPC_BAD_RESPONSE',
      `the agent answered ${method} with something that is not JSON-RPC`,
    );
  }
  const r = body as { result?: unknown; error?: unknown };
  if (r.error !== undefined) throw rpcError(r.error, method);
  if (!('result' in r)) {
    throw new BridgeError('RPC_BAD_RESPONSE', `the agent answered ${method} without a result or an error`);
  }
  return r.result;
}

async function post(
  target: RpcTarget,
  method: string,
  params: unknown,
  signal?: AbortSignal,
): Promise<Response> {
  const doFetch = target.fetch ?? fetch;
  let res: Response;
  try {
    res = await doFetch(target.endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...target.headers,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
      ...(signal ? { signal } : {}),
    });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new BridgeError(
      'AGENT_UNREACHABLE',
      `could not reach ${target.endpoint} for ${method} (${(cause as Error).message}); is the agent running?`,
      { cause },
    );
  }
  const jsonRpcError =
    !res.ok &&
    res.status !== 401 &&
    res.status !== 403 &&
    (res.headers.get('content-type') ?? '').includes('json');
  if (!res.ok && !jsonRpcError) {
    throw new BridgeError(
      res.status >= 500 ? 'AGENT_UNREACHABLE' : 'RPC_HTTP_ERROR',
      `${target.endpoint} answered ${method} with HTTP ${res.status}` +
        (res.status === 401 || res.status === 403 ? '; the agent wants a key: pair again with --header' : ''),
    );
  }
  return res;
}

/**
 * Makes one JSON-RPC call and returns its `result`; a JSON-RPC error becomes `RPC_ERROR` with `rpcCode`.
 *
 * @example
 * ```ts
 * const result = await callRpc({ endpoint, headers: { 'A2A-Version': '1.0' } }, 'GetTask', { id });
 * ```
 */
export async function callRpc(
  target: RpcTarget,
  method: string,
  params: unknown,
  signal?: AbortSignal,
): Promise<unknown> {
  const res = await post(target, method, params, signal);
  let body: unknown;
  try {
    body = await res.json();
  } catch (cause) {
    throw new BridgeError(
      'RPC_BAD_RESPONSE',
      `the agent answered ${method} with invalid JSON (HTTP ${res.status})`,
      {
        cause,
      },
    );
  }
  return unwrap(body, method);
}

/**
 * Makes a streaming JSON-RPC call and yields each event's `result` as it arrives. A server that answers
 * with plain JSON instead yields that one result (or throws its error). A broken connection throws
 * `STREAM_DROPPED`; the caller decides how to resume.
 *
 * @example
 * ```ts
 * for await (const result of streamRpc(target, 'SendStreamingMessage', params)) console.log(result);
 * ```
 */
export async function* streamRpc(
  target: RpcTarget,
  method: string,
  params: unknown,
  signal?: AbortSignal,
): AsyncGenerator<unknown, void, undefined> {
  const res = await post(target, method, params, signal);
  const type = res.headers.get('content-type') ?? '';
  if (!type.includes('text/event-stream')) {
    yield unwrap(await res.json(), method);
    return;
  }
  if (!res.body) return;
  const parser = createSseParser();
  const decoder = new TextDecoder();
  const reader = res.body.getReader();
  try {
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (cause) {
        if (signal?.aborted) return;
        throw new BridgeError(
          'STREAM_DROPPED',
          `the stream of ${method} broke: ${(cause as Error).message}`,
          { cause },
        );
      }
      if (chunk.done) return;
      for (const frame of parser.feed(decoder.decode(chunk.value, { stream: true }))) {
        let body: unknown;
        try {
          body = JSON.parse(frame.data);
        } catch (cause) {
          throw new BridgeError('RPC_BAD_RESPONSE', `the agent sent an event that is not JSON in ${method}`, {
            cause,
          });
        }
        if (frame.event === 'error') {
          const e = body as { error?: unknown };
          throw rpcError(e.error ?? body, method);
        }
        yield unwrap(body, method);
      }
    }
  } finally {
    reader.releaseLock();
    if (!signal?.aborted) await res.body.cancel().catch(() => {});
  }
}
