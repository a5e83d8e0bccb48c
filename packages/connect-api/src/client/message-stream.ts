// The host's message stream: reads {connect_url}/messages as Server-Sent Events over fetch, resumes after
// the last seq it handed on (Last-Event-ID), reconnects with exponential back-off, stops when revoked.
import type { HostMessage } from '@screen-service/core/host-messages';
import { backoffDelay } from '@screen-service/io-kit/backoff';
import { readSse } from '@screen-service/io-kit/sse';
import { HostApiError } from './errors.js';

export interface MessageStreamOptions {
  /** The connect URL (`{base}/functions/v1/svc-connect`). */
  connectUrl: string;
  token: string;
  /** Resume after this seq (the last row handed on); default 0: every unhandled row. */
  after?: number;
  /** Called once per row, in order; the next row waits for it. */
  onMessage(message: HostMessage): void | Promise<void>;
  /** A connection attempt failed (it is retried); for logs. */
  onRetry?(err: unknown, delayMs: number): void;
  /** Called each time the stream is (re)connected. */
  onOpen?(): void;
  signal?: AbortSignal;
  fetch?: typeof fetch;
  /** First retry delay (ms, default 500), doubling up to `maxDelayMs` (default 30 s), with jitter. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** No byte for this long (ms, default 60 s; the service sends a keepalive every 20 s) = reconnect. */
  idleTimeoutMs?: number;
}

/** Why a stream stopped: the caller aborted, or the connection was removed in the app. */
export type StreamStop = 'aborted' | 'revoked';

export interface MessageStream {
  /** Resolves when the stream stops for good; rejects on a refusal a retry cannot fix (e.g. `unauthorized`). */
  done: Promise<StreamStop>;
  /** The last seq handed to `onMessage`. */
  cursor(): number;
}

/**
 * @example
 * ```ts
 * const stream = openMessageStream({ connectUrl, token, after: state.cursor, onMessage: (m) => queue.push(m) });
 * await stream.done; // 'revoked' when the person removed this host
 * ```
 */
export function openMessageStream(options: MessageStreamOptions): MessageStream {
  const doFetch = options.fetch ?? fetch;
  // Half to all of the delay: hosts cut off together (a restart of the service) come back spread out.
  const backoff = {
    baseMs: options.initialDelayMs ?? 500,
    maxMs: options.maxDelayMs ?? 30_000,
    jitter: [0.5, 1],
  } as const;
  const idleMs = options.idleTimeoutMs ?? 60_000;
  let cursor = options.after ?? 0;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        options.signal?.removeEventListener('abort', done);
        resolve();
      }
      options.signal?.addEventListener('abort', done, { once: true });
    });

  async function once(): Promise<StreamStop | null> {
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    let idle: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      clearTimeout(idle);
      idle = setTimeout(() => controller.abort(), idleMs);
    };
    try {
      arm();
      const res = await doFetch(`${options.connectUrl}/messages`, {
        headers: {
          accept: 'text/event-stream',
          authorization: `Bearer ${options.token}`,
          ...(cursor > 0 ? { 'last-event-id': String(cursor) } : {}),
        },
        signal: controller.signal,
      });
      if (!res.ok || !res.body) {
        const e = (await res.json().catch(() => ({}))) as { error?: string; message?: string };
        if (e.error === 'connector_revoked') return 'revoked';
        throw new HostApiError(
          res.status,
          e.error ?? 'INVALID_RESPONSE',
          e.message ?? `The stream answered ${res.status}.`,
        );
      }
      options.onOpen?.();
      for await (const ev of readSse(res.body)) {
        arm();
        if (ev.event === 'revoked') return 'revoked';
        if (ev.event !== 'message') continue;
        const m = JSON.parse(ev.data) as HostMessage;
        if (m.seq <= cursor) continue;
        await options.onMessage(m);
        cursor = m.seq;
      }
      return null; // the service closed the stream (a restart): reconnect
    } finally {
      clearTimeout(idle);
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  const done = (async (): Promise<StreamStop> => {
    let failures = 0;
    for (;;) {
      if (options.signal?.aborted) return 'aborted';
      let failure: unknown = null;
      try {
        const stop = await once();
        if (stop) return stop;
        failures = 0;
      } catch (err) {
        if (options.signal?.aborted) return 'aborted';
        if (err instanceof HostApiError && err.permanent) throw err;
        failure = err;
      }
      const wait = failure ? backoffDelay(backoff, ++failures, Math.random()) : 50;
      if (failure) options.onRetry?.(failure, wait);
      await sleep(wait);
    }
  })();
  return { done, cursor: () => cursor };
}
