// The push sender: drains the durable outbox off the request path. Rows of one thread for one device
// collapse into one push (the newest row, with a count); a thread that buzzed moments ago waits out the
// collapse window and then gets one update; 404/410 remove the device; 429/5xx back off (Retry-After).
import { type Clock, type Random, systemClock, systemRandom } from '@screen-service/registry/kernel';
import type { AgentRecord, PushDeliveryRecord, Store } from '@screen-service/registry/model';
import { attentionWait } from './push-attention.js';
import { type Group, type LoadedRow, loadRow, payloadFor, type SendContext } from './push-payload.js';
import { DEFAULT_COLLAPSE_WINDOW_MS, MAX_PUSH_ATTEMPTS, retryDelayMs } from './push-rules.js';
import type { PushOutcome, PushTransport } from './push-transport.js';

export { threadTopic } from './push-payload.js';

/** Something the sender did that an operator may want to log. */
export type PushEvent =
  | { type: 'sent'; subscriptionId: string; agentId: string; kind: PushDeliveryRecord['kind']; rows: number }
  | { type: 'gone'; subscriptionId: string; httpStatus: number }
  | { type: 'retry'; subscriptionId: string; attempts: number; delayMs: number; reason: string }
  | { type: 'dropped'; subscriptionId: string; reason: string }
  | { type: 'error'; error: unknown };

/** What one pass over the outbox did. */
export interface PushTickReport {
  sent: number;
  gone: number;
  retried: number;
  dropped: number;
  /** Rows settled without a push: the thread was open by the time they were due, or their row is gone. */
  suppressed: number;
  /** Rows held back to the end of their thread's collapse window. */
  deferred: number;
}

export interface PushDispatcherOptions {
  store: Store;
  transport: PushTransport;
  /** The app's public address: a notification tap opens `<appUrl>/#/a/<agent>`. */
  appUrl: string;
  /**
   * Where a notification's action posts its answer (the person's API `POST /push/answer`, issue 39); absent:
   * notifications carry no actions and no answer token.
   */
  answerUrl?: string;
  now?: Clock;
  random?: Random;
  /** After a buzz for a thread, later rows wait this long and go as one update (default 5 s). */
  collapseWindowMs?: number;
  /** Rows read per pass (default 200). */
  batchSize?: number;
  /** Pushes in flight at once (default 16). */
  concurrency?: number;
  /** How often the loop looks at the outbox when nothing woke it (default 1 s). */
  pollMs?: number;
  onEvent?: (event: PushEvent) => void;
}

export interface PushDispatcher {
  /** One pass over the rows due now. */
  tick(): Promise<PushTickReport>;
  /** Starts the loop (passes on `wake()`, on due rows and every `pollMs`). */
  start(): void;
  /** Stops the loop and waits for the pass in flight. */
  stop(): Promise<void>;
  /** Runs a pass soon (a write queued a push). */
  wake(): void;
}

/** Settles a group's rows by the push service's answer: sent, gone, retried with back-off, or dropped. */
async function settleOutcome(ctx: SendContext, group: Group, outcome: PushOutcome, report: PushTickReport) {
  const ids = group.rows.map((r) => r.id);
  const sub = group.subscription.id;
  if (outcome.status === 'sent') {
    const messageIds = group.rows.map((r) => r.messageId).filter((m): m is string => m !== null);
    // Both in the same commit (the store groups the writes of a turn).
    await Promise.all([ctx.store.push.settle(ids), ctx.store.push.markIntentsSent(messageIds, ctx.now())]);
    report.sent++;
    ctx.emit({
      type: 'sent',
      subscriptionId: sub,
      agentId: group.agentId,
      kind: group.kind,
      rows: ids.length,
    });
  } else if (outcome.status === 'gone') {
    await ctx.store.push.removeSubscriptionById(sub);
    report.gone++;
    ctx.emit({ type: 'gone', subscriptionId: sub, httpStatus: outcome.httpStatus });
  } else if (outcome.status === 'retry') {
    const attempts = Math.max(...group.rows.map((r) => r.attempts)) + 1;
    if (attempts >= MAX_PUSH_ATTEMPTS) {
      await ctx.store.push.settle(ids);
      report.dropped++;
      ctx.emit({
        type: 'dropped',
        subscriptionId: sub,
        reason: `gave up after ${attempts} tries: ${outcome.reason}`,
      });
      return;
    }
    const delayMs = retryDelayMs(attempts, outcome.retryAfterMs, ctx.jitter());
    await ctx.store.push.postpone(ids, ctx.now() + delayMs, true);
    report.retried++;
    ctx.emit({ type: 'retry', subscriptionId: sub, attempts, delayMs, reason: outcome.reason });
  } else {
    await ctx.store.push.settle(ids);
    report.dropped++;
    ctx.emit({ type: 'dropped', subscriptionId: sub, reason: outcome.reason });
  }
}

/** What the sender remembers of one (device, thread). */
interface Seen {
  buzz?: number;
  shown?: number;
  plain?: number;
}

/**
 * Whether a group of `message` rows buzzes now (`send`), never (`drop`) or later (the time to wait for): a
 * thread that buzzed moments ago waits out the collapse window; rows older than what the device shows are
 * gathered into it; an open thread or the person in the app on any device drops it; then quiet hours and
 * the budget of buzzes that ask nothing (ADR 0258).
 */
async function gateBuzz(
  store: Store,
  group: Group,
  row: LoadedRow,
  at: number,
  windowMs: number,
  seen: Seen,
): Promise<'send' | 'drop' | number> {
  const first = group.rows.every((r) => r.attempts === 0);
  if (first && seen.buzz !== undefined && at < seen.buzz + windowMs) return seen.buzz + windowMs;
  // A newer row of the thread already buzzed this device (rows held back by the budget or quiet hours behind
  // an ask that went at once): they are gathered into it, not shown over it.
  if (row.message.createdAt < (seen.shown ?? 0)) return 'drop';
  // Opened since the write, or the person is in the app on any device: the buzz is moot (issue 39).
  if (
    (await store.push.isOpen({ agentId: group.agentId, userId: group.userId }, at)) ||
    (await store.push.isActive(group.userId, at))
  ) {
    return 'drop';
  }
  // A retry already had its turn: only a first try waits for quiet hours or the budget.
  if (!first) return 'send';
  const wait = await attentionWait(store, { userId: group.userId, at, row, lastPlainAt: seen.plain });
  return wait ?? 'send';
}

/**
 * Creates the sender over the store's outbox.
 *
 * @example
 * ```ts
 * const sender = createPushDispatcher({ store, transport: createWebPushTransport({ vapid }), appUrl });
 * sender.start();
 * // ... on shutdown
 * await sender.stop();
 * ```
 */
export function createPushDispatcher(options: PushDispatcherOptions): PushDispatcher {
  const { store, transport } = options;
  const now = options.now ?? systemClock;
  const random = options.random ?? systemRandom;
  const windowMs = options.collapseWindowMs ?? DEFAULT_COLLAPSE_WINDOW_MS;
  const batchSize = options.batchSize ?? 200;
  const concurrency = options.concurrency ?? 16;
  const pollMs = options.pollMs ?? 1000;
  const emit = (e: PushEvent) => {
    try {
      options.onEvent?.(e);
    } catch {
      // A failing logger must not stop the sender.
    }
  };
  // Per (device, thread): when it last buzzed, the newest row it was shown, and when it last buzzed with
  // nothing to answer (the budget). In memory: after a restart at worst one extra update goes out.
  const seen = new Map<string, Seen>();

  const jitter = () => (random.bytes(1)[0] ?? 0) / 256;
  const ctx: SendContext = { ...options, store, now, random, emit, jitter };

  async function sendGroup(group: Group, agents: Map<string, AgentRecord | null>, report: PushTickReport) {
    const ids = group.rows.map((r) => r.id);
    const at = now();
    const buzzKey = `${group.subscription.id} ${group.agentId}`;
    const row = group.kind === 'revoked' ? null : await loadRow(ctx, group, agents);
    const drop = async () => {
      await store.push.settle(ids);
      report.suppressed += ids.length;
    };
    if (group.kind !== 'revoked' && !row) return drop();
    if (group.kind === 'message' && row) {
      const gate = await gateBuzz(store, group, row, at, windowMs, seen.get(buzzKey) ?? {});
      if (gate === 'drop') return drop();
      if (gate !== 'send') {
        await store.push.postpone(ids, gate, false);
        report.deferred += ids.length;
        return;
      }
    }
    const request = await payloadFor(ctx, group, row);
    if (!request) return drop();
    if (group.kind === 'message' && row) {
      const plain = row.actionable ? seen.get(buzzKey)?.plain : at;
      seen.set(buzzKey, {
        buzz: at,
        shown: row.message.createdAt,
        ...(plain === undefined ? {} : { plain }),
      });
    }
    let outcome: PushOutcome;
    try {
      outcome = await transport.send(request);
    } catch (error) {
      outcome = { status: 'retry', httpStatus: null, reason: String(error) };
    }
    await settleOutcome(ctx, group, outcome, report);
  }

  // Pipelined passes (ADR 0205): a pass reads the due rows that are not already being sent and queues their
  // groups; up to `concurrency` groups are sent at once whichever pass queued them, so a row written while a
  // pass's sends are in flight starts at once instead of after the whole pass. A (device, thread) group in
  // flight holds back that thread's newer rows until it settled, so they collapse as before.
  const inFlight = new Set<string>();
  const busyThreads = new Set<string>();
  const work: (() => Promise<void>)[] = [];
  const sending = new Set<Promise<void>>();
  let senders = 0;

  function pump() {
    while (senders < concurrency && work.length > 0) {
      const job = work.shift()!;
      senders++;
      const done = job().finally(() => {
        senders--;
        sending.delete(done);
        pump();
      });
      sending.add(done);
    }
  }

  /** Queues the groups of the rows due now; resolves when they are queued, with their completion. */
  async function pass(): Promise<{
    report: PushTickReport;
    done: Promise<unknown>;
    full: boolean;
    queued: number;
  }> {
    const report: PushTickReport = { sent: 0, gone: 0, retried: 0, dropped: 0, suppressed: 0, deferred: 0 };
    const due = await store.push.due(now(), batchSize + inFlight.size);
    const groups = new Map<string, Group>();
    let fresh = 0;
    for (const { row, subscription } of due) {
      if (inFlight.has(row.id)) continue;
      fresh++;
      const key = `${row.subscriptionId} ${row.kind} ${row.agentId}`;
      if (busyThreads.has(key)) continue;
      let g = groups.get(key);
      if (!g) {
        g = { subscription, kind: row.kind, agentId: row.agentId, userId: row.userId, rows: [] };
        groups.set(key, g);
      }
      g.rows.push(row);
    }
    const agents = new Map<string, AgentRecord | null>();
    const dones: Promise<void>[] = [];
    for (const [key, g] of groups) {
      for (const r of g.rows) inFlight.add(r.id);
      busyThreads.add(key);
      dones.push(
        new Promise<void>((resolve) => {
          work.push(async () => {
            let ok = true;
            try {
              await sendGroup(g, agents, report);
            } catch (error) {
              ok = false;
              emit({ type: 'error', error });
            } finally {
              for (const r of g.rows) inFlight.delete(r.id);
              busyThreads.delete(key);
              resolve();
            }
            // Once the queue drained, rows held back behind this group (or past a full batch) are read; a
            // failing store waits a poll instead of spinning.
            if (ok && work.length === 0) wake();
          });
        }),
      );
    }
    pump();
    return { report, done: Promise.all(dones), full: fresh >= batchSize, queued: groups.size };
  }

  async function tick(): Promise<PushTickReport> {
    const p = await pass();
    await p.done;
    if (p.full) wake();
    return p.report;
  }

  let running = false;
  let loop: Promise<void> | null = null;
  let pending = false;
  let wakeUp: (() => void) | null = null;

  function wake() {
    pending = true;
    wakeUp?.();
  }

  async function sleep(ms: number) {
    if (pending) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref?.();
      function done() {
        clearTimeout(timer);
        wakeUp = null;
        resolve();
      }
      wakeUp = done;
    });
  }

  async function run() {
    while (running) {
      pending = false;
      let failed = false;
      try {
        // While groups wait for a free sender there is nothing to gain from reading the outbox again (and
        // a read per write would cost more than the sends); the last queued group wakes the loop.
        if (work.length === 0) await pass();
      } catch (error) {
        failed = true;
        emit({ type: 'error', error });
      }
      if (!running) break;
      let delay = pollMs;
      // Rows being sent stay due until they settle; each settled group wakes the loop, so only an idle
      // sender looks at when the next row falls due.
      if (inFlight.size === 0) {
        try {
          const next = await store.push.nextDueAt();
          // Rows still due after a pass that failed (a failing store): wait a little, do not spin.
          if (next !== null && !failed) delay = Math.max(0, Math.min(pollMs, next - now()));
          else if (next !== null) delay = Math.max(Math.min(pollMs, next - now()), Math.min(pollMs, 100));
        } catch (error) {
          emit({ type: 'error', error });
        }
      }
      await sleep(delay);
    }
  }

  return {
    tick,
    wake,
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    async stop() {
      running = false;
      wakeUp?.();
      await loop;
      loop = null;
      // The sends in flight finish and settle (or are left due for the next start).
      while (sending.size > 0 || work.length > 0) await Promise.all([...sending]);
    },
  };
}
