// Claim now, or wait until the thread's next person event (or the deadline, or an abort) and claim again.
// No polling: the notifier wakes the waiter the moment a person row is written.

import type { Notifier } from '@screen-service/registry/kernel';
import { type Clock, systemClock } from '@screen-service/registry/kernel';
import type { MessageRecord, ThreadKey } from '@screen-service/registry/model';

export interface WaitForAnswersOptions {
  notifier: Notifier;
  key: ThreadKey;
  waitMs: number;
  signal?: AbortSignal | undefined;
  claim: () => Promise<MessageRecord[]>;
  /** The rules' clock (the deadline is measured on it). */
  now?: Clock;
}

/**
 * Returns claimed rows as soon as there are any, else [] after `waitMs`. After an abort it returns []
 * without claiming, so nothing is lost to a caller that has gone away.
 */
export async function waitForAnswers(o: WaitForAnswersOptions): Promise<MessageRecord[]> {
  if (o.signal?.aborted) return [];
  if (o.waitMs <= 0) return o.claim();
  const now = o.now ?? systemClock;
  const deadline = now() + o.waitMs;
  let wake: (() => void) | undefined;
  let pending = false;
  // Subscribe before the first claim so an event between the claim and the wait is not missed.
  const unsubscribe = o.notifier.subscribe(o.key.userId, (e) => {
    const answer = e.type === 'message' && e.agentId === o.key.agentId && e.message.sender === 'person';
    // `agents` is published when a connection is removed: the claim then refuses at once (issue 46).
    if (!answer && e.type !== 'resync' && e.type !== 'agents') return;
    pending = true;
    wake?.();
  });
  const onAbort = () => wake?.();
  o.signal?.addEventListener('abort', onAbort);
  try {
    for (;;) {
      pending = false;
      const rows = await o.claim();
      if (rows.length > 0) return rows;
      const left = deadline - now();
      if (left <= 0 || o.signal?.aborted) return [];
      if (!pending) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = undefined;
      }
      if (o.signal?.aborted) return [];
    }
  } finally {
    o.signal?.removeEventListener('abort', onAbort);
    unsubscribe();
  }
}
