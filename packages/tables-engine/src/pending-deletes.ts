// Settles deletes that waited for the person's tap: Delete runs them, Keep forgets them.
import { TablesError } from './errors.js';
import type { PendingDelete, TableStore } from './store.js';

/** Which pending delete the person tapped. */
export interface PendingTap {
  owner: string;
  agent: string;
  id: string;
}

/** What a Delete tap did. */
export interface ConfirmedDelete {
  pending: PendingDelete;
  /** False when the row or table was already gone. */
  deleted: boolean;
}

async function take(store: TableStore, tap: PendingTap): Promise<PendingDelete> {
  const pending = (await store.listPending(tap.owner, tap.agent)).find((p) => p.id === tap.id);
  const taken = pending && (await store.takePending(tap.owner, tap.id));
  if (!taken) {
    throw new TablesError(
      'PENDING_NOT_FOUND',
      `no delete ${tap.id} is waiting for agent ${tap.agent}; it was settled already`,
    );
  }
  return taken;
}

/**
 * The person tapped Delete: removes the row or table the agent asked to delete.
 *
 * @example
 * ```ts
 * const { deleted } = await confirmPending(store, { owner: 'u1', agent: 'coach', id: answer.pending[0].id });
 * ```
 */
export async function confirmPending(store: TableStore, tap: PendingTap): Promise<ConfirmedDelete> {
  const pending = await take(store, tap);
  const ref = { owner: pending.owner, holder: pending.holder, name: pending.table };
  const deleted =
    pending.kind === 'row' ? await store.deleteRow(ref, pending.key!) : await store.dropTable(ref);
  return { pending, deleted };
}

/**
 * The person tapped Keep: forgets the pending delete and changes nothing.
 *
 * @example
 * ```ts
 * await keepPending(store, { owner: 'u1', agent: 'coach', id: 'p3' });
 * ```
 */
export function keepPending(store: TableStore, tap: PendingTap): Promise<PendingDelete> {
  return take(store, tap);
}
