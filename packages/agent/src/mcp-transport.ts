// The tool-server transport: the official MCP SDK client over streamable HTTP (fetch only), tool results as data.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import {
  AuthError,
  ClosedError,
  ConnectionError,
  RateLimitedError,
  ScreenServiceError,
  type ServiceCode,
  ServiceRefusedError,
} from './errors.js';

/** A bearer token, or a function giving the current one (an OAuth access token the caller refreshes). */
export type TokenSource = string | (() => string | Promise<string>);

/** Calls the service's tools; `signal` ends a call at once, closing its HTTP request. */
export interface ToolTransport {
  call(tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

export interface McpTransportOptions {
  url: string;
  token: TokenSource;
  /** A `fetch` to use instead of the global one (a proxy, a test's own). */
  fetch?: typeof fetch;
  /** Longest time one call may take, in ms (a wait's long poll holds up to 25 s). Default 60 000. */
  timeoutMs?: number;
}

const CLIENT_INFO = { name: '@screen-service/agent', version: '0.1.0' };

/**
 * One MCP client per call lane. A lane carries one call at a time, so an abort can close exactly that call's
 * HTTP request (the SDK client's own cancel only sends a notification, which a stateless server cannot route):
 * the service then stops the wait and claims nothing.
 */
class Lane {
  private client: Promise<Client> | undefined;
  private current: AbortController | undefined;
  constructor(private readonly o: McpTransportOptions) {}

  private open(): Promise<Client> {
    this.client ??= (async () => {
      const base = this.o.fetch ?? globalThis.fetch;
      const token = this.o.token;
      const laneFetch: typeof fetch = async (input, init) => {
        const headers = new Headers(init?.headers);
        headers.set('authorization', `Bearer ${typeof token === 'string' ? token : await token()}`);
        const signals = [init?.signal, this.current?.signal].filter((s): s is AbortSignal => !!s);
        return base(input, {
          ...init,
          headers,
          signal: signals.length > 0 ? AbortSignal.any(signals) : null,
        });
      };
      const transport = new StreamableHTTPClientTransport(new URL(this.o.url), { fetch: laneFetch });
      const client = new Client(CLIENT_INFO, { capabilities: {} });
      try {
        await client.connect(transport);
      } catch (err) {
        this.client = undefined;
        throw err;
      }
      return client;
    })();
    return this.client;
  }

  async call(tool: string, args: Record<string, unknown>, signal?: AbortSignal) {
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    this.current = controller;
    try {
      if (signal?.aborted) throw signal.reason;
      const client = await this.open();
      return await client.callTool({ name: tool, arguments: args }, undefined, {
        signal: controller.signal,
        timeout: this.o.timeoutMs ?? 60_000,
      });
    } catch (err) {
      // A broken connection may leave the client half set up: the next call starts a fresh one.
      if (!(err instanceof StreamableHTTPError)) this.reset();
      throw err;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.current = undefined;
    }
  }

  reset(): void {
    const old = this.client;
    this.client = undefined;
    void old?.then((c) => c.close()).catch(() => undefined);
  }
}

/**
 * The tool-server transport.
 *
 * @example
 * ```ts
 * const t = createMcpTransport({ url: 'https://svc.example/functions/v1/svc-mcp', token: 'svc_ct_...' });
 * const r = await t.call('svc_threads', {});
 * ```
 */
export function createMcpTransport(options: McpTransportOptions): ToolTransport {
  // Writes share one lane; every call with a signal (a wait) gets a lane of its own while it runs.
  const main = new Lane(options);
  const idle: Lane[] = [];
  let closed = false;
  return {
    async call(tool, args, signal) {
      if (closed) throw new ClosedError();
      const lane = signal ? (idle.pop() ?? new Lane(options)) : main;
      try {
        return toStructured(tool, await lane.call(tool, args, signal));
      } catch (err) {
        throw toError(tool, err, signal);
      } finally {
        if (signal && !closed) idle.push(lane);
        else if (signal) lane.reset();
      }
    },
    async close() {
      closed = true;
      main.reset();
      for (const lane of idle.splice(0)) lane.reset();
    },
  };
}

function toStructured(tool: string, result: unknown): Record<string, unknown> {
  const r = result as { isError?: boolean; structuredContent?: Record<string, unknown>; content?: unknown };
  if (r.isError) {
    const e = (r.structuredContent?.error ?? {}) as {
      code?: string;
      message?: string;
      field?: string;
      details?: unknown;
    };
    const text = Array.isArray(r.content) ? (r.content[0] as { text?: string } | undefined)?.text : undefined;
    // The server SDK's own argument check answers as a tool error too, with only its text: the 1.x SDK's
    // `MCP error -32602: ...`, the 2.x SDK's `Input validation error: ...` / `Invalid arguments for tool ...`.
    const rpc = /^MCP error (-?\d+):/.exec(text ?? '')?.[1];
    const argumentsRefused =
      Number(rpc) === ErrorCode.InvalidParams ||
      /^(Input validation error|Invalid arguments for tool)/.test(text ?? '');
    const code = (e.code ?? (argumentsRefused ? 'invalid_input' : 'internal_error')) as ServiceCode;
    const extra = {
      ...(e.field !== undefined ? { field: e.field } : {}),
      ...(e.details !== undefined ? { details: e.details } : {}),
    };
    const message = e.message ?? text ?? `${tool} failed`;
    if (code === 'rate_limited') throw new RateLimitedError(code, message, extra);
    if (code === 'unauthorized' || code === 'suspended' || code === 'connector_revoked')
      throw new AuthError(code, message, extra);
    throw new ServiceRefusedError(code, message, extra);
  }
  if (!r.structuredContent || typeof r.structuredContent !== 'object') {
    throw new ServiceRefusedError('internal_error', `${tool} answered without structured content`);
  }
  return r.structuredContent;
}

/** The HTTP refusal's `{error: {code|message}}` or `{error: "<code>"}` body, when the message carries one. */
function httpCode(message: string): { code?: string; message?: string } {
  const at = message.indexOf('{');
  if (at < 0) return {};
  try {
    const body = JSON.parse(message.slice(at)) as { error?: unknown; message?: unknown };
    if (typeof body.error === 'string')
      return { code: body.error, ...(typeof body.message === 'string' ? { message: body.message } : {}) };
    const e = body.error as { code?: unknown; message?: unknown } | undefined;
    return typeof e?.message === 'string' ? { message: e.message } : {};
  } catch {
    return {};
  }
}

function toError(tool: string, err: unknown, signal?: AbortSignal): unknown {
  if (err instanceof ScreenServiceError) return err;
  if (signal?.aborted) return err;
  if (err instanceof StreamableHTTPError) {
    const status = typeof err.code === 'number' ? err.code : undefined;
    const parsed = httpCode(err.message);
    const message = parsed.message ?? `${tool}: the service answered HTTP ${status}`;
    if (status === 401)
      return new AuthError((parsed.code ?? 'unauthorized') as ServiceCode, message, { status });
    if (status === 403)
      return new AuthError((parsed.code ?? 'forbidden') as ServiceCode, message, { status });
    if (status === 429) return new RateLimitedError('rate_limited', message, { status });
    if (status !== undefined && status < 500)
      return new ServiceRefusedError((parsed.code ?? 'invalid_input') as ServiceCode, message, { status });
    return new ConnectionError(`${tool}: the service answered HTTP ${status}`, err);
  }
  // A JSON-RPC error the service answered (not a timeout or a closed connection): the call itself was refused.
  if (
    err instanceof McpError &&
    err.code !== ErrorCode.RequestTimeout &&
    err.code !== ErrorCode.ConnectionClosed
  ) {
    return new ServiceRefusedError(
      err.code === ErrorCode.InvalidParams ? 'invalid_input' : 'internal_error',
      err.message,
    );
  }
  const why = err instanceof Error ? err.message : String(err);
  return new ConnectionError(`${tool}: could not reach the service (${why})`, err);
}
