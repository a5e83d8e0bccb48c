// A Notifier shared by every instance on one PostgreSQL database: publish delivers here at once and sends a
// NOTIFY; one dedicated LISTEN connection per instance fans the others' events out to local listeners.
import { backoffDelay } from '@screen-service/io-kit/backoff';
import { createNotifier, mintName, type Notifier, type ThreadEvent } from '@screen-service/registry/kernel';
import pg from 'pg';
import { ScaleError } from '../scale-errors.js';
import { decodeWire, encodeInline, encodeReference } from './wire.js';

/** Options of {@link createPostgresNotifier}. */
export interface PostgresNotifierOptions {
  /** Sends the NOTIFYs and reads events that travelled by reference. */
  pool: pg.Pool;
  /** Where the LISTEN connection goes (the same database as `pool`). */
  connectionString: string;
  /** Channel name (lower-case letters, digits, `_`); default `svc_events`. */
  channel?: string;
  /** This instance's id on the channel (its own NOTIFYs are skipped); default random. */
  instanceId?: string;
  /** How often the LISTEN connection is probed with `SELECT 1` (a half-open TCP link); default 10 s. */
  probeMs?: number;
  /** First wait before reconnecting; doubles up to 5 s. Default 100 ms. */
  reconnectMs?: number;
  /** A NOTIFY that failed three times, a lost link, an unreadable reference. */
  onError?: (err: unknown) => void;
}

/** The shared notifier, with its lifecycle. */
export interface PostgresNotifier extends Notifier {
  /** Opens the LISTEN connection; rejects with `POSTGRES_UNAVAILABLE` when it cannot. */
  start(): Promise<void>;
  /** Sends what is queued, then closes the LISTEN connection. */
  close(): Promise<void>;
  /** True while the LISTEN connection is up. */
  listening(): boolean;
  /** The LISTEN connection's backend pid (tests cut it with `pg_terminate_backend`). */
  listenerPid(): number | null;
  /** Resolves after every event published so far was sent (or given up). */
  flush(): Promise<void>;
}

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;
const MAX_RECONNECT_MS = 5000;
// Three chosen waits before an event is given up (its listeners re-read), not a grown back-off.
const SEND_RETRIES_MS = [50, 250, 1000];
const PAYLOAD_KEEP = "interval '10 minutes'";
// At most this many events in one statement (about 8 MB at the largest inline payload).
const MAX_BATCH = 1000;

/**
 * @example
 * ```ts
 * const notifier = createPostgresNotifier({ pool, connectionString: url });
 * await notifier.start();
 * const core = createCore({ store, notifier, ... });
 * ```
 */
export function createPostgresNotifier(options: PostgresNotifierOptions): PostgresNotifier {
  const { pool, connectionString } = options;
  const channel = options.channel ?? 'svc_events';
  if (!CHANNEL.test(channel)) {
    throw new ScaleError(
      'INVALID_CHANNEL',
      `channel must be lower-case letters, digits or _ (at most 63), for example svc_events; got ${JSON.stringify(channel)}.`,
    );
  }
  const origin = options.instanceId ?? mintName(8);
  const probeMs = options.probeMs ?? 10_000;
  // Reconnects wait `reconnectMs` (default 0.1 s), doubling after each failed try, at most 5 s.
  const backoff = { baseMs: options.reconnectMs ?? 100, maxMs: MAX_RECONNECT_MS };
  const onError = options.onError ?? (() => {});
  const local = createNotifier();

  let client: pg.Client | null = null;
  let closed = false;
  let failedReconnects = 0;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  let probeTimer: ReturnType<typeof setInterval> | undefined;
  let sending: Promise<void> = Promise.resolve();
  let receiving: Promise<void> = Promise.resolve();
  let sweptAt = 0;

  // Events wait here while a batch is on its way; the next batch takes all of them at once.
  const queue: ThreadEvent[] = [];
  let draining = false;
  let sentCount = 0;

  /** The payload of one event: inline, or (7900 bytes and more) a row of svc_notify_payloads named by id. */
  async function payloadOf(event: ThreadEvent): Promise<string> {
    const inline = encodeInline(origin, event, ++sentCount);
    if (inline !== null) return inline;
    const row = await pool.query<{ id: string }>(
      'INSERT INTO svc_notify_payloads (payload) VALUES ($1) RETURNING id',
      [JSON.stringify(event)],
    );
    if (Date.now() - sweptAt > 60_000) {
      sweptAt = Date.now();
      await pool.query(`DELETE FROM svc_notify_payloads WHERE created_at < now() - ${PAYLOAD_KEEP}`);
    }
    return encodeReference(origin, row.rows[0]!.id);
  }

  /**
   * Every event of `batch` in one statement (one round trip, one commit of PostgreSQL's notify queue, which
   * every notifying transaction takes in turn), in publish order: unnest yields the array in order, and one
   * transaction's notifications are delivered in the order they were sent.
   */
  async function send(batch: ThreadEvent[]) {
    const payloads: string[] = [];
    for (const event of batch) payloads.push(await payloadOf(event));
    await pool.query('SELECT pg_notify($1, p) FROM unnest($2::text[]) AS t(p)', [channel, payloads]);
  }
  async function sendWithRetries(batch: ThreadEvent[]) {
    for (let attempt = 0; ; attempt++) {
      try {
        return await send(batch);
      } catch (err) {
        const wait = SEND_RETRIES_MS[attempt];
        if (wait === undefined || closed) return onError(err);
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }
  /** Sends batches until nothing is queued: one batch on the wire at a time keeps the publish order. */
  async function drain() {
    try {
      while (queue.length > 0) {
        await sendWithRetries(queue.splice(0, MAX_BATCH));
      }
    } finally {
      draining = false;
    }
  }
  function receive(payload: string | undefined) {
    const wire = decodeWire(payload);
    if (!wire || wire.o === origin) return;
    // One chain keeps events in the order they arrived, including those read back by reference.
    receiving = receiving.then(async () => {
      if ('e' in wire) return local.publish(wire.e);
      try {
        const r = await pool.query<{ payload: string }>(
          'SELECT payload FROM svc_notify_payloads WHERE id = $1',
          [wire.r],
        );
        const text = r.rows[0]?.payload;
        if (text !== undefined) local.publish(JSON.parse(text) as ThreadEvent);
        else local.resyncAll();
      } catch (err) {
        onError(err);
        // The event is lost to this instance: its listeners re-read instead.
        local.resyncAll();
      }
    });
  }

  async function connect(): Promise<void> {
    const c = new pg.Client({ connectionString, keepAlive: true });
    c.on('error', (err) => lost(c, err));
    c.on('end', () => lost(c));
    c.on('notification', (msg) => {
      if (msg.channel === channel) receive(msg.payload);
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
    } catch (err) {
      c.removeAllListeners('end');
      await c.end().catch(() => {});
      throw err;
    }
    if (closed) {
      await c.end().catch(() => {});
      return;
    }
    client = c;
    failedReconnects = 0;
  }

  function lost(c: pg.Client, err?: unknown) {
    if (c !== client) return;
    client = null;
    if (err) onError(err);
    void c.end().catch(() => {});
    scheduleReconnect();
  }

  function scheduleReconnect() {
    if (closed || reconnectTimer) return;
    reconnectTimer = setTimeout(
      async () => {
        reconnectTimer = undefined;
        try {
          await connect();
          // Anything published while the link was down never reached us: every waiter re-reads now that
          // the LISTEN is active again, so nothing written before this point is missed.
          if (client) local.resyncAll();
        } catch (err) {
          onError(err);
          failedReconnects++;
          scheduleReconnect();
        }
      },
      backoffDelay(backoff, failedReconnects + 1),
    );
    reconnectTimer.unref?.();
  }

  function probe() {
    const c = client;
    if (!c) return;
    const timer = setTimeout(() => lost(c, new Error('LISTEN connection did not answer a probe')), probeMs);
    timer.unref?.();
    c.query('SELECT 1').then(
      () => clearTimeout(timer),
      (err) => {
        clearTimeout(timer);
        lost(c, err);
      },
    );
  }

  return {
    publish(event) {
      local.publish(event);
      if (closed) return;
      queue.push(event);
      if (draining) return;
      draining = true;
      sending = drain();
    },
    subscribe: local.subscribe,
    subscribeAll: local.subscribeAll,
    listenerCount: local.listenerCount,
    async start() {
      closed = false;
      try {
        await connect();
      } catch (err) {
        throw new ScaleError(
          'POSTGRES_UNAVAILABLE',
          `Could not LISTEN on the database (${(err as Error).message}); check SVC_DATABASE_URL and that PostgreSQL is running.`,
          { cause: err },
        );
      }
      probeTimer ??= setInterval(probe, probeMs);
      probeTimer.unref?.();
    },
    async close() {
      await sending;
      closed = true;
      clearTimeout(reconnectTimer);
      reconnectTimer = undefined;
      clearInterval(probeTimer);
      probeTimer = undefined;
      const c = client;
      client = null;
      await c?.end().catch(() => {});
      await receiving;
    },
    listening: () => client !== null,
    listenerPid: () => (client as (pg.Client & { processID?: number }) | null)?.processID ?? null,
    flush: () => sending,
  };
}
