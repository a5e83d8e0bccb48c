// {connect_url}/messages: the message transport for hosts (ADR 0130). `GET /` streams the person's rows as
// Server-Sent Events (resumed with Last-Event-ID), `POST /turn` starts a turn, `POST /reply` answers it,
// `POST /withdraw` takes a screen back.

import type { HostTransport } from '@screen-service/core/host-messages';
import { bearerToken, jsonBody, sendHttpError } from '@screen-service/http-kit';
import type { ConnectionAuth } from '@screen-service/registry/hosts';
import { ServiceError } from '@screen-service/registry/kernel';
import express, { type Request, type Response, type Router } from 'express';

/** A comment line this often keeps proxies (and the host's read timeout) from closing an idle stream. */
export const HOST_STREAM_KEEPALIVE_MS = 20_000;

/**
 * Bytes a host stream may hold unsent (Node's buffer, beyond the kernel's) before it is cut: a host that
 * stops reading must not grow the server's memory. It reconnects with Last-Event-ID and loses nothing.
 */
export const HOST_STREAM_MAX_BUFFERED_BYTES = 1024 * 1024;

/** Host message streams one connector may hold open at once: the same cap as a person's streams (issue 46). */
export const HOST_STREAMS_PER_CONNECTOR = 10;

export interface MessagesRouterOptions {
  transport: HostTransport;
  /** Connector tokens only (`core.hostAuth`). */
  hostAuth: ConnectionAuth;
  /** Called for unexpected (500) errors. */
  onError?: (err: unknown) => void;
  keepaliveMs?: number;
  /** Default {@link HOST_STREAM_MAX_BUFFERED_BYTES}. */
  maxBufferedBytes?: number;
  /** Default {@link HOST_STREAMS_PER_CONNECTOR}. */
  streamsPerConnector?: number;
}

/** The cursor: `Last-Event-ID` (set by EventSource on reconnects) or `?after=`, a message seq; 0 when absent. */
export function streamCursor(req: Request): number {
  const raw =
    req.headers['last-event-id'] ?? (typeof req.query.after === 'string' ? req.query.after : undefined);
  if (raw === undefined || raw === '') return 0;
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!/^\d{1,15}$/.test(String(value))) {
    throw new ServiceError(
      'INVALID_INPUT',
      'after (or Last-Event-ID) must be the seq of the last message received, a whole number.',
      { field: 'after' },
    );
  }
  return Number(value);
}

/**
 * The message transport as an Express router; refusals are the host API's (`{error, message}` in doc2's
 * spellings).
 *
 * @example
 * ```ts
 * router.use('/messages', createMessagesRouter({ transport: core.hostTransport, hostAuth: core.hostAuth }));
 * ```
 */
export function createMessagesRouter(options: MessagesRouterOptions): Router {
  const { transport, hostAuth } = options;
  const fail = (res: Response, err: unknown) => {
    if (sendHttpError(res, err, { spelling: 'host' }).status >= 500) options.onError?.(err);
  };
  const caller = (req: Request) => hostAuth.verify(bearerToken(req.headers.authorization));
  const keepaliveMs = options.keepaliveMs ?? HOST_STREAM_KEEPALIVE_MS;
  const maxBuffered = options.maxBufferedBytes ?? HOST_STREAM_MAX_BUFFERED_BYTES;
  const perConnector = options.streamsPerConnector ?? HOST_STREAMS_PER_CONNECTOR;
  const openStreams = new Map<string, number>();
  const router = express.Router();

  /** Counts a stream against its connector until the answer closes; refuses one past the cap. */
  const holdStream = (connectorId: string, res: Response) => {
    const open = openStreams.get(connectorId) ?? 0;
    if (open >= perConnector) {
      throw new ServiceError(
        'RATE_LIMITED',
        `This connection already has ${open} message streams open; close one (a host needs one) before opening another.`,
      );
    }
    openStreams.set(connectorId, open + 1);
    res.once('close', () => {
      const left = (openStreams.get(connectorId) ?? 1) - 1;
      if (left > 0) openStreams.set(connectorId, left);
      else openStreams.delete(connectorId);
    });
  };

  router.get('/', async (req, res) => {
    let close: (() => void) | undefined;
    try {
      const after = streamCursor(req);
      const principal = await caller(req);
      holdStream(principal.connectorId, res);
      let open = true;
      const write = (chunk: string) => {
        if (!open) return;
        res.write(chunk);
        // destroy, not end: end() would wait on the same buffer the host does not read.
        if (res.writableLength > maxBuffered) {
          stop();
          res.destroy();
        }
      };
      const stop = () => {
        if (!open) return;
        open = false;
        clearInterval(keepalive);
        close?.();
      };
      res.status(200);
      res.setHeader('content-type', 'text/event-stream; charset=utf-8');
      res.setHeader('cache-control', 'no-cache, no-transform');
      res.setHeader('x-accel-buffering', 'no');
      res.flushHeaders();
      // `retry` tells an EventSource to come back after 1 s; the client library backs off by itself.
      write('retry: 1000\n: connected\n\n');
      const keepalive = setInterval(() => write(': keepalive\n\n'), keepaliveMs);
      req.on('close', stop);
      res.on('error', stop);
      close = await transport.open(principal, {
        after,
        send: (m) => write(`id: ${m.seq}\nevent: message\ndata: ${JSON.stringify(m)}\n\n`),
        end: (reason) => {
          write(
            reason === 'revoked'
              ? `event: revoked\ndata: ${JSON.stringify({ error: 'connector_revoked', message: 'This connection was removed in the app; pair again.' })}\n\n`
              : `event: shutdown\ndata: {}\n\n`,
          );
          stop();
          res.end();
        },
      });
      if (!open) close();
    } catch (err) {
      close?.();
      if (res.headersSent) res.end();
      else fail(res, err);
    }
  });

  const json = jsonBody({ limit: 64 * 1024 });
  router.post('/turn', json, async (req, res) => {
    try {
      const p = await caller(req);
      const body = objectBody(req.body);
      res.json(await transport.turn(p, { agent_id: body.agent_id, session: body.session, rows: body.rows }));
    } catch (err) {
      fail(res, err);
    }
  });

  router.post('/reply', json, async (req, res) => {
    try {
      const p = await caller(req);
      const body = objectBody(req.body);
      res.json(
        await transport.reply(p, {
          agent_id: body.agent_id,
          session: body.session,
          idempotency_key: body.idempotency_key,
          text: body.text,
          lines: body.lines,
          deadline: body.deadline,
          turn: body.turn,
          done: body.done,
        }),
      );
    } catch (err) {
      fail(res, err);
    }
  });

  // Takes back a screen this host's agent showed (ADR 0279): the phone shows it withdrawn.
  router.post('/withdraw', json, async (req, res) => {
    try {
      const p = await caller(req);
      res.json(await transport.withdraw(p, { screen_id: objectBody(req.body).screen_id }));
    } catch (err) {
      fail(res, err);
    }
  });

  router.all(['/', '/turn', '/reply', '/withdraw'], (req, res) => {
    res.set('allow', req.path === '/' ? 'GET' : 'POST');
    fail(
      res,
      new ServiceError(
        'METHOD_NOT_ALLOWED',
        req.path === '/' ? 'Use GET (an event stream).' : 'Use POST with a JSON body.',
      ),
    );
  });
  // The body reader's refusals (bad JSON, too large, another type) get the same mapping.
  router.use((err: unknown, _req: Request, res: Response, _next: (e?: unknown) => void) => fail(res, err));
  return router;
}

function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ServiceError('INVALID_INPUT', 'Send a JSON object.', { field: 'body' });
  }
  return body as Record<string, unknown>;
}
