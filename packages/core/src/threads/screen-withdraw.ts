// Withdrawing a screen (issue 44, ADR 0279): the agent takes back a screen it showed. One transaction marks it
// withdrawn (its deadline cancelled), writes the thread row the phone draws as "Withdrawn", signs its receipt,
// and closes the screen's notifications, queueing the quiet replacement for every device still showing one.

import type { Receipts } from '@screen-service/receipts';
import { isoTime, type Notifier, ServiceError } from '@screen-service/registry/kernel';
import type { MessageRecord, NewMessage, ScreenRecord, Store } from '@screen-service/registry/model';
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

/**
 * Withdraws `screen`. A screen already withdrawn answers `already: true`; one whose deadline already decided
 * (a default landed, or it expired) is refused with what happened (`CONFLICT`): there is nothing to take
 * back. A screen answered before stays answered (the answer is the agent's to read) and takes no more taps.
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
  const out = await chainRetry(() =>
    store.transaction(async (tx) => {
      const d = await tx.deadlines.get(screen.id);
      if (d?.outcome === 'withdrawn') return { message: null, stale: 0, at: d.settledAt ?? at };
      if (d && (d.outcome === 'default' || d.outcome === 'expired')) {
        throw new ServiceError('CONFLICT', `Nothing to withdraw: ${lateTapMessage(d).split(', so')[0]}.`, {
          field: 'screen_id',
          details: { reason: 'expired', outcome: d.outcome },
        });
      }
      if (
        !(await tx.deadlines.withdraw({
          screenId: screen.id,
          userId: screen.userId,
          agentId: screen.agentId,
          at,
        }))
      ) {
        return { message: null, stale: 0, at };
      }
      const message = await tx.threads.append(
        withdrawRow(screen, deps.newId('msg_'), at, step),
        deps.pageVersion(),
      );
      if (signer) await signer.write(tx, message, screen, {});
      // Every device still showing the screen's notification gets the quiet replacement ("Withdrawn").
      const shown = await tx.push.closeNotices(screen.id, at);
      const stale =
        shown.length === 0
          ? 0
          : await tx.push.enqueueStale({
              id: deps.newId('push_'),
              userId: screen.userId,
              agentId: screen.agentId,
              messageId: message.id,
              subscriptionIds: [...new Set(shown.map((n) => n.subscriptionId))],
              at,
            });
      return { message, stale, at };
    }),
  );
  if (out.stale > 0) deps.onPushQueued?.();
  if (out.message) {
    deps.notifier.publish({
      type: 'message',
      userId: screen.userId,
      agentId: screen.agentId,
      message: out.message,
    });
  }
  return {
    screen_id: screen.id,
    withdrawn: true,
    at: isoTime(out.at),
    already: out.message === null,
    message: out.message,
  };
}
