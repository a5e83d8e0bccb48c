// One push sender for all the instances on one PostgreSQL database. The outbox read is not a claim (the
// sender groups a thread's rows and holds back newer ones while one is in flight), so two senders reading it
// would buzz twice; a session-level advisory lock elects the one instance that sends (ADR 0231).

import type { PushDispatcher } from '@screen-service/push';
import type { Notifier } from '@screen-service/registry/kernel';
import pg from 'pg';

/** The advisory lock key of the push sender ("svcpush" in ASCII, as a bigint). */
export const PUSH_SENDER_LOCK_KEY = '32499791782310760';

/** Options of {@link createLeadingSender}. */
export interface LeadingSenderOptions {
  /** The database URL; the lock lives as long as its own connection (not a pool's). */
  url: string;
  /** This instance's sender; started only while this instance holds the lock. */
  sender: PushDispatcher;
  /** The shared notifier: an agent's message written on another instance wakes the leader's sender. */
  notifier: Notifier;
  /** How often a follower tries to take the lock and a leader checks its connection (default 2000 ms). */
  retryMs?: number;
  onError?: (err: unknown) => void;
}

/** A PushDispatcher that sends only while this instance leads; `leading()` says whether it does now. */
export interface LeadingSender extends PushDispatcher {
  leading(): boolean;
}

/**
 * Wraps `sender` so that of all the instances on one database exactly one sends at a time. Each instance
 * keeps one connection and tries `pg_try_advisory_lock` every `retryMs`; the holder starts its sender, checks
 * its connection on the same beat and, when the connection is lost, stops sending at once (PostgreSQL has
 * released the lock with the session, so another instance takes over on its next try).
 *
 * @example
 * ```ts
 * const sender = createLeadingSender({ url, sender: core.createPushSender(transport), notifier: core.notifier });
 * sender.start();
 * ```
 */
export function createLeadingSender(options: LeadingSenderOptions): LeadingSender {
  const { sender, notifier } = options;
  const retryMs = options.retryMs ?? 2000;
  const onError = options.onError ?? (() => {});
  let running = false;
  let leading = false;
  let client: pg.Client | null = null;
  let timer: NodeJS.Timeout | undefined;
  let beat: Promise<void> = Promise.resolve();
  let unsubscribe: (() => void) | undefined;

  async function resign() {
    const was = client;
    client = null;
    if (leading) {
      leading = false;
      await sender.stop();
    }
    await was?.end().catch(() => {});
  }

  async function tryLead() {
    try {
      if (!client) {
        const c = new pg.Client({ connectionString: options.url });
        // A dropped connection ends the lead at once (an error event, not the next beat).
        c.on('error', (err) => {
          onError(err);
          if (client === c) beat = beat.then(resign);
        });
        client = c;
        await c.connect();
      }
      if (leading) {
        await client.query('SELECT 1');
        return;
      }
      const r = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS ok', [
        PUSH_SENDER_LOCK_KEY,
      ]);
      if (r.rows[0]?.ok === true && running) {
        leading = true;
        sender.start();
      }
    } catch (err) {
      onError(err);
      await resign();
    }
  }

  function schedule() {
    if (!running) return;
    timer = setTimeout(() => {
      beat = beat.then(tryLead).then(schedule);
    }, retryMs);
    timer.unref?.();
  }

  return {
    tick: () => sender.tick(),
    wake: () => {
      if (leading) sender.wake();
    },
    leading: () => leading,
    start() {
      if (running) return;
      running = true;
      unsubscribe = notifier.subscribeAll((e) => {
        if (leading && e.type === 'message' && e.message.sender !== 'person') sender.wake();
      });
      beat = beat.then(tryLead).then(schedule);
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      unsubscribe?.();
      await beat;
      await resign();
    },
  };
}
