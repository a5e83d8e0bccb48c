// The resumable long poll (ADR 0274): an `answers` call that passes a cursor claims nothing. It acknowledges
// the rows the cursor names (the previous result's, which the caller holds, so it received them) and returns
// the thread's unacknowledged rows with the cursor that acknowledges them. A result lost on a dropped
// connection is returned again to the next call, which still holds the older cursor.
import { ServiceError } from '@screen-service/registry/kernel';
import type { MessageRecord, Store, ThreadKey } from '@screen-service/registry/model';
import { whileLive } from './claim-guard.js';

const ID = /^[A-Za-z0-9_-]{1,80}$/;

/** The cursor a result with `rows` carries: the ids it returns, opaque to the caller. */
export function answersCursor(rows: MessageRecord[]): string {
  return rows.length === 0 ? '' : Buffer.from(rows.map((r) => r.id).join(' ')).toString('base64url');
}

/** The row ids a cursor acknowledges; `''` (the first call's) none. Refuses a cursor this server did not give. */
export function readAnswersCursor(cursor: string, max: number): string[] {
  if (cursor === '') return [];
  const ids = Buffer.from(cursor, 'base64url').toString('utf8').split(' ');
  if (cursor.length > 4 * 82 * max || ids.length > max || !ids.every((id) => ID.test(id))) {
    throw new ServiceError(
      'INVALID_INPUT',
      'cursor is not one this server gave: pass the cursor of your previous svc_answers result, or "" on the first call.',
      { field: 'cursor' },
    );
  }
  return ids;
}

/**
 * Acknowledges the rows `cursor` names (marks them handled, in this thread only: a forged cursor reaches no
 * other thread) and returns a reader of the thread's rows still unacknowledged after `afterSeq`, for the wait.
 * The reader reads only while connector `connectorId` is live, in the read's own statement (ADR 0301): a
 * connection removed after its check never sees what the person wrote after the removal. The acknowledgement
 * needs no guard: it names rows by id, and a connection learns ids only from reads it was allowed.
 */
export async function acknowledgeAnswers(o: {
  store: Store;
  key: ThreadKey;
  connectorId: string;
  cursor: string;
  limit: number;
  at: number;
  version: number;
}): Promise<(afterSeq: number) => Promise<MessageRecord[]>> {
  const ids = readAnswersCursor(o.cursor, o.limit);
  if (ids.length > 0) await o.store.threads.markRowsHandled(o.key, ids, o.at, o.version);
  return (afterSeq) =>
    whileLive(() =>
      o.store.threads.pendingForHost({
        userId: o.key.userId,
        agentIds: [o.key.agentId],
        afterSeq,
        limit: o.limit,
        guard: { connectorId: o.connectorId },
      }),
    );
}
