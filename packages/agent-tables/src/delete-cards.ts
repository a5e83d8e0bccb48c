// Taps on the tables in a thread: a Delete / Keep card settled by the person (ADR 0141), a row changed in a view.
import { ServiceError } from '@screen-service/registry/kernel';
import type { ScreenRecord } from '@screen-service/registry/model';
import { type Cell, editRow, isTablesError } from '@screen-service/tables-engine';
import { CARD_META, CARD_TAP, type TablesContext } from './tables-context.js';

interface RowTap {
  id: string;
  op: 'row';
  table: string;
  key: string;
  values: Record<string, Cell>;
}

function rowTapOf(screen: ScreenRecord, raw: unknown): RowTap | null {
  const e = raw as Partial<RowTap> | null;
  if (e?.op !== 'row' || typeof e.table !== 'string' || typeof e.key !== 'string') return null;
  if (typeof e.values !== 'object' || e.values === null) return null;
  return screen.taps.some((t) => t.id === e.id && t.preset === 'query') ? (e as RowTap) : null;
}

/** The tap side of the relay tables over the shared context. */
export function createDeleteCards(ctx: TablesContext) {
  const { store, relay, engine, limits, changed } = ctx;

  /** The person ticked a box in a query view: the row changes in the one set of tables (ADR 0250). */
  async function writeRowTap(screen: ScreenRecord, tap: RowTap): Promise<null> {
    const agent = await store.agents.get(screen.agentId);
    // A thread shared with another person never touches the owner's tables.
    if (!agent || agent.userId !== screen.userId) return null;
    try {
      await editRow(engine, { owner: agent.userId, agent: agent.id, limits, ...tap });
    } catch (error) {
      if (!isTablesError(error)) throw error;
      throw new ServiceError('INVALID_INPUT', `${error.message}.`, { field: 'event' });
    }
    changed(agent.userId, agent.id, [tap.table]);
    return null;
  }

  async function settleCard(screen: ScreenRecord, raw: unknown): Promise<Record<string, unknown> | null> {
    const rowTap = rowTapOf(screen, raw);
    if (rowTap) return writeRowTap(screen, rowTap);
    // Most taps are on other screens: they skip reading the message (its meta still decides for cards).
    if (!screen.taps.some((t) => t.id.startsWith(CARD_TAP))) return null;
    const message = await store.threads.getMessage(screen.messageId);
    const id = message?.meta[CARD_META];
    if (typeof id !== 'string') return null;
    const value = (raw as { value?: unknown } | null)?.value;
    const pending = (await engine.listPending(screen.userId, screen.agentId)).find((x) => x.id === id);
    if (!pending) {
      throw new ServiceError('CONFLICT', 'This delete was already settled.', { field: 'event' });
    }
    await engine.takePending(screen.userId, id);
    const ref = { owner: pending.owner, holder: pending.holder, name: pending.table };
    const del = value === true || value === 'Delete';
    let deleted = false;
    if (del && pending.kind === 'row') deleted = await engine.deleteRow(ref, pending.key!);
    else if (del) {
      deleted = await relay.drop({ userId: pending.owner, holder: pending.holder, name: pending.table });
    }
    if (deleted) changed(screen.userId, pending.holder, [pending.table]);
    return {
      op: pending.kind === 'row' ? 'delete' : 'drop',
      table: pending.table,
      ...(pending.key === undefined ? {} : { key: pending.key }),
      deleted,
    };
  }

  return { settleCard };
}
