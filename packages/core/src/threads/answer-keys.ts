// A person's answer sent again with its idempotency key (a phone's queued answer, ADR 0276) answers the first.
import { ServiceError } from '@screen-service/registry/kernel';
import { constraintErrors, type MessageRecord, type Store } from '@screen-service/registry/model';

const KEY = /^[A-Za-z0-9._:~-]{1,128}$/;

/** The checked `idempotency_key` of a request, or undefined when it has none. */
function answerKey(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' && KEY.test(value)) return value;
  throw new ServiceError('INVALID_INPUT', 'idempotency_key must be 1 to 128 letters, digits or . _ : ~ -.', {
    field: 'idempotency_key',
  });
}

/**
 * Runs `write` once per key: a key already written answers with `replay` of its row, without writing. Two
 * sends at once both pass the first read; the store's unique key refuses the later write (or the screen's
 * deadline, settled by the first), and that one answers with the first row too.
 */
export async function writeOnce<T>(
  store: Store,
  row: { userId: string; agentId: string; kind: MessageRecord['kind']; key: unknown },
  write: (key: string | undefined) => Promise<T>,
  replay: (first: MessageRecord) => Promise<T>,
): Promise<T> {
  const key = answerKey(row.key);
  const earlier = async () => {
    const m = key === undefined ? null : await store.threads.findPersonAnswer(row.userId, key);
    // Another answer's key (another thread, a tap's key on a reply) is refused: never its replay.
    if (m && (m.agentId !== row.agentId || m.kind !== row.kind)) throw constraintErrors.answerKeyUsed(key!);
    return m;
  };
  const first = await earlier();
  if (first) return replay(first);
  try {
    return await write(key);
  } catch (error) {
    const won = key === undefined ? null : await earlier();
    if (won) return replay(won);
    throw error;
  }
}
