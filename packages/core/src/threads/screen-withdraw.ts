// Withdrawing a screen (issue 44, ADR 0279): the agent takes back a screen it showed. One transaction marks it
// withdrawn (its deadline cancelled), writes the thread row the phone draws as "Withdrawn", signs its receipt,
// and closes the screen's notifications, queueing the quiet replacement for every device still showing one.

import type { ReceiptSigner, Receipts } from '@screen-service/receipts';
import { isoTime, type Notifier, ServiceError } from '@screen-service/registry/kernel';
import type {
  MessageRecord,
  NewMessage,
  Repositories,
  ScreenRecord,
  Store,
} from '@screen-service/registry/model';
import { chainRetry } from './answer-writes.js';
import { lateTapMessage } from './deadline-taps.js';

/** What a withdraw answers: the screen, when it was withdrawn, and whether an earlier call had done it. */
export interface WithdrawResult {
  screen_id: string;
  withdrawn: true;
  at: string;
  /** True when the screen was withdrawn before this call (nothing new was written). */
  already: boolean;
}

/** What a withdraw needs of the thread core. */
export interface WithdrawDeps {
  store: Store;
  notifier: Notifier;
  receipts?: Receipts;
  now: () => number;
  newId: (prefix: string) => string;
  pageVersion: () => number;
  onPushQueued?: () => void;
}

/** The row the thread keeps: handled at once (never an answer for the agent), drawn as "Withdrawn". */
export function withdrawRow(screen: ScreenRecord, id: string, at: number, step?: string): NewMessage {
  const marks = { decided_by: 'agent', ...(step ? { step } : {}) };
  const event = { id: 'withdraw', preset: 'withdraw', value: 'withdrawn', screen: screen.id, ...marks };
  return {
    id,
    userId: screen.userId,
    agentId: screen.agentId,
    sender: 'person',
    kind: 'tap',
    body: `[svc] withdraw withdraw value=withdrawn\n${JSON.stringify(event)}`,
    meta: {
      id: 'withdraw',
      preset: 'withdraw',
      value: 'withdrawn',
      echo: 'Withdrawn',
      via: 'withdraw',
      event,
      ...marks,
    },
    screenId: screen.id,
    createdAt: at,
    handledAt: at,
  };
}

/** What a withdraw writes with, inside a transaction another write may have opened (an answer, a deadline). */
export interface WithdrawWrites {
  newId: (prefix: string) => string;
  pageVersion: () => number;
  signer: ReceiptSigner | null;
}

/**
 * Inside a transaction: withdraws `screen` at `at` (see {@link withdrawScreen}). Returns the row written and how
 * many stale pushes were queued; `message: null` when it was withdrawn before (at `at` of then).
 */
export async function withdrawIn(
  tx: Repositories,
  w: WithdrawWrites,
  screen: ScreenRecord,
  at: number,
  step?: string,
): Promise<{ message: MessageRecord | null; stale: number; at: number }> {
  const d = await tx.deadlines.get(screen.id);
  if (d?.outcome === 'withdrawn') return { message: null, stale: 0, at: d.settledAt ?? at };
  if (d && (d.outcome === 'default' || d.outcome === 'expired')) {
    throw new ServiceError('CONFLICT', `Nothing to withdraw: ${lateTapMessage(d).split(', so')[0]}.`, {
      field: 'screen_id',
      details: { reason: 'expired', outcome: d.outcome },
    });
  }
  const key = { screenId: screen.id, userId: screen.userId, agentId: screen.agentId, at };
  if (!(await tx.deadlines.withdraw(key))) return { message: null, stale: 0, at };
  const message = await tx.threads.append(withdrawRow(screen, w.newId('msg_'), at, step), w.pageVersion());
  if (w.signer) await w.signer.write(tx, message, screen, {});
  // Every device still showing the screen's notification gets the quiet replacement ("Withdrawn").
  const shown = await tx.push.closeNotices(screen.id, at);
  const stale =
    shown.length === 0
      ? 0
      : await tx.push.enqueueStale({
          id: w.newId('push_'),
          userId: screen.userId,
          agentId: screen.agentId,
          messageId: message.id,
          subscriptionIds: [...new Set(shown.map((n) => n.subscriptionId))],
          at,
        });
  return { message, stale, at };
}

/**
 * Withdraws `screen`, and the screens its ask was offered as in holders' threads (ADR 0280). A screen already
 * withdrawn answers `already: true`; one whose deadline already decided (a default landed, or it expired) is
 * refused with what happened (`CONFLICT`): there is nothing to take back. A screen answered before stays
 * answered (the answer is the agent's to read) and takes no more taps.
 *
 * @example
 * ```ts
 * await withdrawScreen(deps, screen); // { screen_id, withdrawn: true, at, already: false }
 * ```
 */
export async function withdrawScreen(
  deps: WithdrawDeps,
  screen: ScreenRecord,
  step?: string,
): Promise<WithdrawResult & { message: MessageRecord | null }> {
  const { store } = deps;
  const at = deps.now();
  const signer = deps.receipts ? await deps.receipts.signer() : null;
  const w = { newId: deps.newId, pageVersion: deps.pageVersion, signer };
  const out = await chainRetry(() =>
    store.transaction(async (tx) => {
      const own = await withdrawIn(tx, w, screen, at, step);
      const rows = own.message ? [own.message] : [];
      let stale = own.stale;
      if (own.message) {
        for (const o of await withdrawOffersIn(tx, w, screen.id, at, step)) {
          rows.push(o.message);
          stale += o.stale;
        }
      }
      return { ...own, rows, stale };
    }),
  );
  if (out.stale > 0) deps.onPushQueued?.();
  for (const m of out.rows) {
    deps.notifier.publish({ type: 'message', userId: m.userId, agentId: m.agentId, message: m });
  }
  return {
    screen_id: screen.id,
    withdrawn: true,
    at: isoTime(out.at),
    already: out.message === null,
    message: out.message,
  };
}

/** Inside a transaction: withdraws every screen `originId` was offered as that is still open. */
export async function withdrawOffersIn(
  tx: Repositories,
  w: WithdrawWrites,
  originId: string,
  at: number,
  step?: string,
  except?: string,
): Promise<{ message: MessageRecord; stale: number }[]> {
  const out: { message: MessageRecord; stale: number }[] = [];
  for (const offer of await tx.deadlines.offersOf(originId)) {
    if (offer.screenId === except) continue;
    const d = await tx.deadlines.get(offer.screenId);
    // Answered by its holder (the ask's answer), or already withdrawn: nothing to take back.
    if (d && d.outcome !== null) continue;
    const offered = await tx.threads.getScreen(offer.screenId);
    if (!offered) continue;
    const r = await withdrawIn(tx, w, offered, at, step);
    if (r.message) out.push({ message: r.message, stale: r.stale });
  }
  return out;
}
