// Connected agents' tables live on the phone (doc3): one memory store per agent, saved in localStorage.
import type { Op } from '@screen-service/screen-lines';
import { createStoreQuery, type QueryAnswer } from '@screen-service/screen-view';
import {
  createMemoryStore,
  type MemorySnapshot,
  type MemoryStore,
  type OpLine,
  runOps,
} from '@screen-service/tables-engine';

const stores = new Map<string, MemoryStore>();
const key = (agentId: string) => `svc-tables-${agentId}`;
const context = (agentId: string) => ({
  owner: 'me',
  agent: agentId,
  now: () => Date.now(),
  timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
});

function storeOf(agentId: string): MemoryStore {
  let store = stores.get(agentId);
  if (!store) {
    let snapshot: MemorySnapshot | undefined;
    try {
      snapshot = JSON.parse(localStorage.getItem(key(agentId)) ?? 'null') ?? undefined;
    } catch {
      snapshot = undefined;
    }
    store = createMemoryStore({
      ...(snapshot?.version === 1 ? { snapshot } : {}),
      onChange: (s) => localStorage.setItem(key(agentId), JSON.stringify(s.snapshot())),
    });
    stores.set(agentId, store);
  }
  return store;
}

/** Runs a screen's table lines once (a screen id is remembered), so reopening a thread does not repeat puts. */
export function landScreenTables(agentId: string, screenId: string, ops: Op[]): void {
  const done = `svc-tables-landed-${agentId}`;
  const landed = new Set<string>(JSON.parse(localStorage.getItem(done) ?? '[]') as string[]);
  if (landed.has(screenId)) return;
  const writes: OpLine[] = [];
  for (const op of ops)
    if (op.op === 'table' || op.op === 'drop' || op.op === 'put') writes.push({ op, line: op.op });
  if (writes.length > 0) runOps(storeOf(agentId), { ...context(agentId), ops: writes });
  landed.add(screenId);
  localStorage.setItem(done, JSON.stringify([...landed].slice(-500)));
}

/** The renderer's `query` option for an agent's tables. */
export function queryFor(
  agentId: string,
): (props: Parameters<ReturnType<typeof createStoreQuery>>[0], id: string) => QueryAnswer {
  return createStoreQuery(storeOf(agentId), context(agentId));
}

/** Writes a row change the person made in a view (already written, then told to the agent). */
export function writeRow(
  agentId: string,
  table: string,
  rowKey: string,
  values: Record<string, boolean>,
): void {
  runOps(storeOf(agentId), {
    ...context(agentId),
    ops: [
      {
        op: {
          op: 'put',
          table,
          key: rowKey,
          values: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { kind: 'bool', value: v }])),
        },
        line: `put ${table} ${rowKey}`,
      },
    ],
  });
}
