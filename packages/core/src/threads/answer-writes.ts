// How an answer is written (issue 40's tap path, ADRs 0257, 0260, 0261, 0279): one group-commit write with
// its receipt for a screen with nothing to settle; one transaction for a screen with a deadline, a withdraw
// or an open notification token; a quiet event checked against the screen's deadline.

import type { ReceiptSigner, ReceiptWho } from '@screen-service/receipts';
import { ServiceError } from '@screen-service/registry/kernel';
import type {
  AnswerStakes,
  MessageRecord,
  NewMessage,
  ScreenRecord,
  Store,
} from '@screen-service/registry/model';
import type { ScreenLinesPort } from '@screen-service/screen-rules';
import { hasOffers, settleOffersIn } from './deadline-offers.js';
import { checkDeadlineTap } from './deadline-taps.js';

/** A quiet event (a timer starting): checked against the screen's deadline when it has one, else a plain write. */
export async function writeQuiet(store: Store, screen: ScreenRecord, row: NewMessage, version: number) {
  if (!(await store.deadlines.get(screen.id))) return store.threads.append(row, version);
  return store.transaction(async (tx) => {
    await checkDeadlineTap(tx, screen.id, row.createdAt, true);
    return tx.threads.append(row, version);
  });
}

/** What {@link writeAnswer} takes besides the row: its page version and push id, the notice, the signer. */
export interface AnswerWrite {
  version: number;
  pushId: string;
  /** The notification the tap came from: its notice is spent in the answer's transaction. */
  notice: { id: string; subscriptionId: string } | undefined;
  signer: ReceiptSigner | null;
  who: ReceiptWho;
  /** What an answer to an ask offered to holders writes with (ADR 0280). */
  offers: { newId: (prefix: string) => string; pageVersion: () => number; screenLines: ScreenLinesPort };
}

/** An answer written: its row, the stale pushes queued, and rows it wrote elsewhere (an offer settled). */
export interface AnswerWritten {
  message: MessageRecord;
  stale: number;
  also: MessageRecord[];
}

/**
 * Writes a tap that answers. Most screens carry nothing to settle (no deadline pending, no withdraw, no
 * notification token open): their answer and its receipt are one write of the group commit
 * (`threads.appendSigned`), about half the cost of a transaction (issue 40's tap-path benchmark), its receipt
 * signed beforehand in a worker thread when one is configured (ADR 0288). That write reads the screen's
 * stakes first, in its own transaction, and writes nothing when the answer settles something (ADR 0299):
 * such an answer, or a tap from a notification, takes {@link writeAnswerTx}.
 */
export async function writeAnswer(
  store: Store,
  screen: ScreenRecord,
  row: NewMessage,
  o: AnswerWrite,
): Promise<AnswerWritten> {
  const tx = () => chainRetry(() => writeAnswerTx(store, screen, row, o));
  if (o.notice) return tx();
  if (!o.signer) {
    if (settlesSomething(await store.deadlines.stakes(screen.id))) return tx();
    return { message: await store.threads.append(row, o.version), stale: 0, also: [] };
  }
  const { signer } = o;
  const drawn = { id: screen.id, digest: await signer.digest(store, screen) };
  // Signed in the worker thread, with the answers of the same turn, against the chain's newest link; the
  // write keeps it when that link is still the newest, else signs again there (ADR 0288).
  let presigned = await signer.presign(store, row, drawn, o.who);
  const message = await chainRetry(() => {
    const receiptOf = signer.builder(drawn, o.who, presigned);
    // A retry follows a link another instance wrote: the presigned one is stale, sign in the write.
    presigned = null;
    return store.threads.appendSigned(row, o.version, receiptOf, settlesSomething);
  });
  return message ? { message, stale: 0, also: [] } : tx();
}

/** Whether an answer with these stakes settles something: a deadline not yet answered, a withdraw, a notice. */
function settlesSomething({ deadline, openNotice }: AnswerStakes): boolean {
  return openNotice || (deadline !== 'none' && deadline !== 'answered');
}

/**
 * Writes a tap that answers, in one transaction: checks the deadline, spends the notification's notice (when
 * it came from one), signs the receipt, closes the screen's notices and queues the quiet `stale` push for the
 * other devices still showing it.
 */
async function writeAnswerTx(
  store: Store,
  screen: ScreenRecord,
  row: NewMessage,
  o: AnswerWrite,
): Promise<AnswerWritten> {
  return store.transaction(async (tx) => {
    const d = await checkDeadlineTap(tx, screen.id, row.createdAt, false);
    if (o.notice && !(await tx.push.useNotice(o.notice.id, row.createdAt))) {
      throw new ServiceError(
        'CONFLICT',
        'This notification was already answered, or its screen was answered or withdrawn.',
        { field: 'token' },
      );
    }
    const message = await tx.threads.append(row, o.version);
    if (o.signer) await o.signer.write(tx, message, screen, o.who);
    const shown = await tx.push.closeNotices(screen.id, row.createdAt);
    const others = new Set(shown.map((n) => n.subscriptionId).filter((s) => s !== o.notice?.subscriptionId));
    const stale = await tx.push.enqueueStale({
      id: o.pushId,
      userId: screen.userId,
      agentId: screen.agentId,
      messageId: message.id,
      subscriptionIds: [...others],
      at: row.createdAt,
    });
    if (!d || !hasOffers(d)) return { message, stale, also: [] };
    const family = await settleOffersIn(tx, { ...o.offers, signer: o.signer }, screen, d, message);
    return { message, stale: stale + family.stale, also: family.rows };
  });
}

/**
 * Runs an answer's transaction again when another instance took the thread's next receipt number first
 * (PostgreSQL; the unique (thread, seq) refused this one): the next try links after it.
 */
export async function chainRetry<T>(run: () => Promise<T>, tries = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await run();
    } catch (error) {
      if (i >= tries || !String((error as Error)?.message).includes('answer_receipts')) throw error;
    }
  }
}
