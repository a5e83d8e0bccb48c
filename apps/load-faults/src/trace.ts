// Per-request timing of a driver's HTTP calls (LOAD_TRACE_DIR): undici's diagnostics channels split each
// request into waiting for a connection, the server's answer and the body, and keep the slowest ones.
import { AsyncLocalStorage } from 'node:async_hooks';
import diagnostics from 'node:diagnostics_channel';
import type { Socket } from 'node:net';

/**
 * The header that carries a request's tag from the caller to the tracer. A request that waits in the pool for
 * a free connection is created later from another connection's callback, outside the caller's async
 * context, so the tag rides on the request itself (the service ignores the header).
 */
export const TRACE_HEADER = 'x-load-trace';

/** Which call of which client a request belongs to (set with `tracer.within`). */
export interface CallTag {
  step: string;
  client: number;
}

/** One traced request; times in ms since `origin` (the run's start), phases in ms. */
export interface TraceLine {
  step: string;
  client: number;
  method: string;
  path: string;
  startMs: number;
  /** Created → headers written: waiting in the pool for a free connection, and connecting. */
  queueMs: number;
  /** Headers written → answer's head read: the server (and, on a new connection, its accept queue). */
  answerMs: number;
  /** Head → end of the body. */
  bodyMs: number;
  totalMs: number;
  outcome: string;
  /** The connection's local port, when it connected before the run (`false`) or during it (`true`). */
  localPort: number | null;
  newConnection: boolean | null;
}

export interface TracerOptions {
  /** Lines kept (the slowest). Default 200. */
  keep?: number;
  now?: () => number;
}

interface Live {
  tag: CallTag | undefined;
  method: string;
  path: string;
  created: number;
  sent?: number;
  head?: number;
  socket?: Socket;
  status?: number;
}

/**
 * Subscribes to undici's request channels until `stop()`.
 *
 * @example
 * ```ts
 * const tracer = createTracer();
 * tracer.startRun();
 * // the client's fetch adds `tracer.headers()` to each request
 * await tracer.within({ step: 'show', client: 3 }, () => mcp.call('svc_show', args));
 * tracer.stop();
 * fs.writeFileSync(file, tracer.slowest().map((l) => JSON.stringify(l)).join('\n'));
 * ```
 */
export function createTracer(options: TracerOptions = {}) {
  const keep = options.keep ?? 200;
  const now = options.now ?? (() => performance.now());
  const context = new AsyncLocalStorage<CallTag>();
  const live = new WeakMap<object, Live>();
  const sockets = new WeakMap<Socket, boolean>();
  let origin = now();
  let running = false;
  let slow: TraceLine[] = [];
  let traced = 0;

  const finish = (request: object, outcome: string) => {
    const l = live.get(request);
    if (!l) return;
    live.delete(request);
    if (!l.tag) return; // set-up traffic (warm-up, connects outside a tagged call)
    traced++;
    const end = now();
    const sent = l.sent ?? end;
    const head = l.head ?? end;
    slow.push({
      step: l.tag.step,
      client: l.tag.client,
      method: l.method,
      path: l.path,
      startMs: round(l.created - origin),
      queueMs: round(sent - l.created),
      answerMs: round(head - sent),
      bodyMs: round(end - head),
      totalMs: round(end - l.created),
      outcome,
      localPort: l.socket?.localPort ?? null,
      newConnection: l.socket ? (sockets.get(l.socket) ?? false) : null,
    });
    if (slow.length > keep * 2) slow = top(slow, keep);
  };

  const handlers: [string, (m: unknown) => void][] = [
    [
      'undici:request:create',
      (m) => {
        const { request } = m as { request: { method: string; path: string; headers: unknown } };
        live.set(request, {
          tag: readTag(request.headers),
          method: request.method,
          path: request.path,
          created: now(),
        });
      },
    ],
    [
      'undici:client:connected',
      (m) => {
        const { socket } = m as { socket: Socket };
        sockets.set(socket, running);
      },
    ],
    [
      'undici:client:sendHeaders',
      (m) => {
        const { request, socket } = m as { request: object; socket: Socket };
        const l = live.get(request);
        if (l) Object.assign(l, { sent: now(), socket });
      },
    ],
    [
      'undici:request:headers',
      (m) => {
        const { request, response } = m as { request: object; response: { statusCode: number } };
        const l = live.get(request);
        if (l) Object.assign(l, { head: now(), status: response.statusCode });
      },
    ],
    [
      'undici:request:trailers',
      (m) => {
        const { request } = m as { request: object };
        finish(request, `http_${live.get(request)?.status ?? 0}`);
      },
    ],
    [
      'undici:request:error',
      (m) => {
        const { request, error } = m as { request: object; error: { code?: string; name?: string } };
        finish(request, error.code ?? error.name ?? 'error');
      },
    ],
  ];
  for (const [name, fn] of handlers) diagnostics.subscribe(name, fn);

  return {
    /** Runs `fn` with its HTTP requests tagged (when they carry `headers()`). */
    within<T>(tag: CallTag, fn: () => Promise<T>): Promise<T> {
      return context.run(tag, fn);
    },
    /** The tag header of the call running now (inside `within`), for the request's headers; `{}` outside. */
    headers(): Record<string, string> {
      const tag = context.getStore();
      return tag ? { [TRACE_HEADER]: `${tag.step}:${tag.client}` } : {};
    },
    /** Times count from now; connections opened from now on are marked new. */
    startRun() {
      origin = now();
      running = true;
    },
    /** Tagged requests that ended (the slowest `keep` of them are kept). */
    traced: () => traced,
    /** The slowest requests, slowest first. */
    slowest: (): TraceLine[] => top(slow, keep),
    stop() {
      for (const [name, fn] of handlers) diagnostics.unsubscribe(name, fn);
    },
  };
}

export type Tracer = ReturnType<typeof createTracer>;

/** The tag from undici's request headers (`[name, value, ...]`), if the caller set one. */
function readTag(headers: unknown): CallTag | undefined {
  if (!Array.isArray(headers)) return undefined;
  for (let i = 0; i + 1 < headers.length; i += 2) {
    if (String(headers[i]).toLowerCase() !== TRACE_HEADER) continue;
    const m = /^([a-z_]+):(\d+)$/.exec(String(headers[i + 1]));
    return m ? { step: m[1] as string, client: Number(m[2]) } : undefined;
  }
  return undefined;
}

const round = (ms: number) => Math.round(ms * 10) / 10;
const top = (lines: TraceLine[], n: number) => [...lines].sort((a, b) => b.totalMs - a.totalMs).slice(0, n);
