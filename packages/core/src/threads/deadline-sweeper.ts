// The deadline sweeper (ADR 0260): runs each due step of a screen's deadline once, across restarts and
// instances: reminders buzz again through the push outbox; at the deadline the defaults land as taps
// marked `decided_by: "default"` (or the screen expires), in the transaction that settles the deadline.

import { shouldBuzz } from '@screen-service/push';
import type { Receipts } from '@screen-service/receipts';
import type { Notifier } from '@screen-service/registry/kernel';
import {
  type Clock,
  newTimedId,
  type Random,
  systemClock,
  systemRandom,
} from '@screen-service/registry/kernel';
import type {
  DeadlineRecord,
  MessageRecord,
  NewMessage,
  Repositories,
  Store,
} from '@screen-service/registry/model';
import {
  computeTap,
  type DeadlinePlan,
  defaultScreenLines,
  readPlan,
  type ScreenLinesPort,
  tapMeta,
} from '@screen-service/screen-rules';
import { chainRetry } from './answer-writes.js';
import { offerIn, sweepOfferedIn } from './deadline-offers.js';
import { newPageVersion } from './page-version.js';
import { withdrawOffersIn } from './screen-withdraw.js';

/** Options of {@link createDeadlineSweeper}. */
export interface DeadlineSweeperOptions {
  store: Store;
  notifier: Notifier;
  /** The rules' clock: a step is due when `now()` reaches it (tests move it). */
  now?: Clock;
  random?: Random;
  screenLines?: ScreenLinesPort;
  /** Signs a receipt of each default in its transaction (ADR 0261); none when absent. */
  receipts?: Receipts;
  /** Called after a reminder was queued, so the push sender wakes at once. */
  onPushQueued?: () => void;
  /**
   * Longest real wait between passes (default 500 ms): deadlines set on another instance are seen within
   * it; those set here wake the sweeper at their own time ({@link DeadlineSweeper.wake}).
   */
  maxWaitMs?: number;
  /** Deadlines claimed per read (default 200). */
  batch?: number;
  /** Every step run, for the log and the metrics. */
  onStep?: (step: DeadlineStepRun) => void;
  onError?: (error: unknown) => void;
}

/** One step the sweeper ran. `lateMs` is how long after its time it ran. */
export interface DeadlineStepRun {
  screenId: string;
  step: DeadlinePlan['steps'][number]['do'];
  at: number;
  lateMs: number;
}

/** The sweeper: `sweep` for tests and the CLI, `start`/`stop` with the server, `wake` from writes. */
export interface DeadlineSweeper {
  /** Runs every step due now; resolves with the steps this call ran (others may have run some). */
  sweep(): Promise<DeadlineStepRun[]>;
  /** Sweeps now and then whenever the next step is due (at most `maxWaitMs` apart). */
  start(): void;
  /** Stops the timer and waits for a running pass. */
  stop(): Promise<void>;
  /** A deadline step at `at` was just written here: sweep by then. */
  wake(at: number): void;
}

/** The rows the deadline writes into the thread: one tap per default, or one `expired` row. */
function deadlineRows(
  d: DeadlineRecord,
  plan: DeadlinePlan,
  screen: Parameters<typeof computeTap>[0],
  at: number,
  newId: (p: string) => string,
  screenLines: ScreenLinesPort,
): NewMessage[] {
  const marks = { decided_by: 'default', step: 'deadline' };
  const base = { userId: d.userId, agentId: d.agentId, sender: 'person' as const, kind: 'tap' as const };
  const rows = plan.defaults.map((x): NewMessage => {
    const tap = computeTap(screen, { id: x.id, value: x.value }, screenLines, marks);
    return {
      ...base,
      id: newId('msg_'),
      body: tap.line,
      meta: {
        ...tapMeta(tap, 'default'),
        ...marks,
      },
      screenId: d.screenId,
      createdAt: at,
    };
  });
  if (rows.length > 0) return rows;
  const event = { id: 'deadline', preset: 'deadline', value: 'expired', screen: d.screenId, ...marks };
  return [
    {
      ...base,
      id: newId('msg_'),
      body: `[svc] deadline deadline value=expired\n${JSON.stringify(event)}`,
      meta: {
        id: 'deadline',
        preset: 'deadline',
        value: 'expired',
        echo: 'Expired',
        via: 'default',
        event,
        ...marks,
      },
      screenId: d.screenId,
      createdAt: at,
    },
  ];
}

/**
 * Builds the sweeper. Every step is claimed by a conditional update inside `Store.transaction` (advance a
 * step, or settle the deadline), so two instances sweeping the same row never run it twice, and a tap in
 * the same moment either settles it first (the defaults do not land) or is refused (ADR 0260).
 *
 * @example
 * ```ts
 * const sweeper = createDeadlineSweeper({ store, notifier, now: clock, onPushQueued });
 * sweeper.start(); // ... await sweeper.stop() on shutdown
 * ```
 */
export function createDeadlineSweeper(o: DeadlineSweeperOptions): DeadlineSweeper {
  const { store, notifier } = o;
  const now = o.now ?? systemClock;
  const random = o.random ?? systemRandom;
  const screenLines = o.screenLines ?? defaultScreenLines;
  const newId = (prefix: string) => newTimedId(prefix, now(), random);
  const maxWait = o.maxWaitMs ?? 500;
  const batch = o.batch ?? 200;

  /** Runs one due step of `d` in one transaction; null when another instance (or a tap) got it first. */
  async function runStep(d: DeadlineRecord, at: number) {
    const plan = readPlan(d.plan);
    const step = plan.steps[d.step];
    if (!step) return null;
    const signer = step.do === 'deadline' && o.receipts ? await o.receipts.signer() : null;
    const w = { newId, pageVersion: () => newPageVersion(random), signer };
    const out = await chainRetry(() =>
      store.transaction(async (tx) => {
        // A screen offered to a holder that its ask's deadline did not take back (ADR 0280): withdrawn now.
        if (plan.offer_of) {
          const r = await sweepOfferedIn(tx, w, d, at);
          return { rows: r?.message ? [r.message] : [], pushed: (r?.stale ?? 0) > 0 };
        }
        if (step.do === 'offer') {
          if (!(await tx.deadlines.advance(d.screenId, d.step, plan.steps[d.step + 1]!.at))) return null;
          return offerIn(tx, w, d, step, at);
        }
        if (step.do !== 'deadline') {
          const next = plan.steps[d.step + 1]!.at;
          if (!(await tx.deadlines.advance(d.screenId, d.step, next))) return null;
          // A reminder overdue past the deadline itself (the service was down) no longer buzzes.
          const pushed = at < d.dueAt && (await remind(tx, d, at));
          return { rows: [] as MessageRecord[], pushed };
        }
        const outcome = plan.defaults.length > 0 ? 'default' : 'expired';
        if (!(await tx.deadlines.settle(d.screenId, at, outcome))) return null;
        const screen = await tx.threads.getScreen(d.screenId);
        if (!screen) return { rows: [], pushed: false };
        const rows: MessageRecord[] = [];
        for (const row of deadlineRows(d, plan, screen, at, newId, screenLines)) {
          const m = await tx.threads.append(row, newPageVersion(random));
          if (signer) await signer.write(tx, m, screen, {});
          rows.push(m);
        }
        let pushed = (await withdrawNotices(tx, d, rows.at(-1)!, at)) > 0;
        // The ask decided: the screens it was offered as in holders' threads are withdrawn (ADR 0280).
        for (const offered of await withdrawOffersIn(tx, w, d.screenId, at, 'deadline')) {
          rows.push(offered.message);
          pushed ||= offered.stale > 0;
        }
        return { rows, pushed };
      }),
    );
    if (!out) return null;
    if (out.pushed) o.onPushQueued?.();
    for (const message of out.rows)
      notifier.publish({ type: 'message', userId: message.userId, agentId: message.agentId, message });
    return { screenId: d.screenId, step: step.do, at, lateMs: Math.max(0, at - step.at) };
  }

  /**
   * The deadline decided: the screen's notification tokens close, and every device still showing its
   * notification gets the quiet replacement (ADR 0257), which reads what was decided.
   */
  async function withdrawNotices(tx: Repositories, d: DeadlineRecord, decided: MessageRecord, at: number) {
    const shown = await tx.push.closeNotices(d.screenId, at);
    if (shown.length === 0) return 0;
    return tx.push.enqueueStale({
      id: newId('push_'),
      userId: d.userId,
      agentId: d.agentId,
      messageId: decided.id,
      subscriptionIds: [...new Set(shown.map((n) => n.subscriptionId))],
      at,
    });
  }

  /** A reminder buzzes the screen's message again, unless muted or the thread is open on a device. */
  async function remind(tx: Repositories, d: DeadlineRecord, at: number): Promise<boolean> {
    const screen = await tx.threads.getScreen(d.screenId);
    const agent = await tx.agents.get(d.agentId);
    if (!screen || !agent) return false;
    const key = { agentId: d.agentId, userId: d.userId };
    const open = await tx.push.isOpen(key, at);
    if (!shouldBuzz({ open, agentMuted: agent.pushMuted })) return false;
    await tx.push.enqueueMessage({ id: newId('push_'), ...key, messageId: screen.messageId, at });
    return true;
  }

  let running: Promise<DeadlineStepRun[]> | undefined;
  async function pass(): Promise<DeadlineStepRun[]> {
    const ran: DeadlineStepRun[] = [];
    for (;;) {
      const before = ran.length;
      const at = now();
      const due = await store.deadlines.due(at, batch);
      for (const d of due) {
        try {
          const r = await runStep(d, at);
          if (r) {
            ran.push(r);
            o.onStep?.(r);
          }
        } catch (error) {
          o.onError?.(error);
        }
      }
      // A row may have its next step due too (a service down past a reminder): read again until a round
      // runs nothing, so a deadline is never left for the next pass.
      if (ran.length === before) return ran;
    }
  }
  const sweep = () => {
    running ??= pass().finally(() => {
      running = undefined;
    });
    return running;
  };

  let timer: NodeJS.Timeout | undefined;
  let stopped = true;
  let wakeAt = Number.POSITIVE_INFINITY;
  function schedule(delay: number) {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(tick, Math.max(0, Math.min(delay, maxWait)));
    timer.unref();
  }
  async function tick() {
    wakeAt = Number.POSITIVE_INFINITY;
    try {
      await sweep();
      const next = await store.deadlines.nextDueAt();
      if (next !== null) wakeAt = next;
      schedule(next === null ? maxWait : next - now());
    } catch (error) {
      o.onError?.(error);
      schedule(maxWait);
    }
  }
  return {
    sweep,
    start() {
      if (!stopped) return;
      stopped = false;
      schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
    wake(at) {
      if (stopped || at >= wakeAt) return;
      wakeAt = at;
      schedule(at - now());
    },
  };
}
