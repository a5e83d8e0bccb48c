// GET /stream: Server-Sent Events of the person's threads, so the app redraws without polling.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { isoTime, isoTimeOrNull, type Notifier } from '@screen-service/registry/kernel';
import type { MessageRecord } from '@screen-service/registry/model';

/** A comment line this often keeps proxies from closing an idle stream. */
export const STREAM_KEEPALIVE_MS = 25_000;

/**
 * Bytes a stream may hold unsent (Node's buffer, beyond the kernel's) before it is ended: a client that
 * stops reading must not grow the server's memory. The app reconnects and reloads the thread page.
 */
export const STREAM_MAX_BUFFERED_BYTES = 1024 * 1024;

/** What one stream needs: whose events, the exchange, and the server's shutdown signal. */
export interface ThreadStreamOptions {
  notifier: Pick<Notifier, 'subscribe'>;
  userId: string;
  req: IncomingMessage;
  res: ServerResponse;
  shutdown: AbortSignal;
  /**
   * Asked before each event and at each keep-alive: false once the sign-in ended (signed out, token
   * expired, account gone). The stream then closes, and the app reconnects with a fresh token.
   */
  stillSignedIn?: () => Promise<boolean>;
  /** Default {@link STREAM_MAX_BUFFERED_BYTES}. */
  maxBufferedBytes?: number;
}

/**
 * Answers with `text/event-stream` and forwards the person's `message`, `agents`, `read` and `working` events until
 * the client goes away, the server shuts down or the sign-in ends (`stillSignedIn`, asked before each event
 * and at each keep-alive: no event reaches a stream whose token expired or was signed out).
 *
 * @example
 * ```ts
 * openThreadStream({ notifier, userId: user.userId, req, res, shutdown: stopping.signal });
 * ```
 */
export function openThreadStream(options: ThreadStreamOptions): void {
  const { notifier, userId, req, res, shutdown } = options;
  const stillSignedIn = options.stillSignedIn ?? (async () => true);
  const maxBuffered = options.maxBufferedBytes ?? STREAM_MAX_BUFFERED_BYTES;
  res.statusCode = 200;
  res.setHeader('content-type', 'text/event-stream; charset=utf-8');
  res.setHeader('cache-control', 'no-cache, no-transform');
  res.setHeader('x-accel-buffering', 'no');
  res.flushHeaders();
  res.write(': connected\n\n');
  let ended = false;
  // Events go out in order, each only after the sign-in is confirmed still live.
  let queue: Promise<void> = Promise.resolve();
  const send = (event: string, data: unknown) => {
    queue = queue.then(async () => {
      if (ended) return;
      if (!(await stillSignedIn().catch(() => false))) {
        end();
        return;
      }
      if (!ended) write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    });
  };
  const unsubscribe = notifier.subscribe(userId, (e) => {
    if (e.type === 'message') send('message', { agent_id: e.agentId, message: brief(e.message) });
    else if (e.type === 'agents') send('agents', {});
    else if (e.type === 'read') send('read', { agent_id: e.agentId, seq: e.seq });
    else if (e.type === 'tables')
      send('tables', e.agentId === undefined ? {} : { agent_id: e.agentId, tables: e.tables ?? null });
    // Events may have been lost between instances (ADR 0230): the app reloads what it shows.
    else if (e.type === 'resync') send('resync', {});
    // A host's turn (doc3 working row): `until` is when it lapses by itself, null when the answer came.
    else if (e.type === 'working')
      send('working', {
        agent_id: e.agentId,
        working_until: e.until === null ? null : new Date(e.until).toISOString(),
      });
  });
  const keepalive = setInterval(() => {
    queue = queue.then(async () => {
      if (ended) return;
      if (!(await stillSignedIn().catch(() => false))) end();
      else write(': keepalive\n\n');
    });
  }, STREAM_KEEPALIVE_MS);
  // A reader that stopped reading: drop the stream (destroy, since end() would wait on the same buffer).
  function write(chunk: string) {
    res.write(chunk);
    if (res.writableLength > maxBuffered) {
      close();
      res.destroy();
    }
  }
  function close() {
    ended = true;
    clearInterval(keepalive);
    unsubscribe();
    shutdown.removeEventListener('abort', end);
  }
  function end() {
    if (ended) return;
    close();
    res.end();
  }
  req.on('close', close);
  res.on('error', close);
  if (shutdown.aborted) end();
  else shutdown.addEventListener('abort', end);
}

/** The row without anything the app must fetch through the thread page (photo links, screen ops). */
function brief(m: MessageRecord) {
  return {
    id: m.id,
    seq: m.seq,
    sender: m.sender,
    kind: m.kind,
    body: m.body,
    meta: m.meta,
    screen_id: m.screenId,
    created_at: isoTime(m.createdAt),
    handled_at: isoTimeOrNull(m.handledAt),
  };
}
