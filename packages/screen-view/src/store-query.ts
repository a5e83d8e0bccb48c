// createStoreQuery: answers query components from a tables-engine store (the phone's or the playground's).
import type { Op } from '@screen-service/screen-lines';
import type { QueryProps } from '@screen-service/screen-lines/catalog';
import { type CallContext, runOps, type TableStore } from '@screen-service/tables-engine';
import type { QueryAnswer } from './types.js';

/** Query answers read ahead from a store: the renderer asks synchronously, the store answers asynchronously. */
export interface StoreQuery {
  /** The `query` option of `renderScreen`: the answer `load` read for this component. */
  query: (props: QueryProps, id: string) => QueryAnswer;
  /** Runs every query component of `ops` against the store; call it before drawing and again after a write. */
  load(ops: readonly Op[]): Promise<void>;
}

async function answer(store: TableStore, context: CallContext, props: QueryProps, id: string) {
  const answer = await runOps(store, {
    ...context,
    ops: [{ op: { op: 'add', preset: 'query', id, props }, line: `query ${props.table}` }],
  });
  const result = answer.results[0];
  if (!result) return { error: answer.failed[0]?.error ?? `No table called ${props.table} yet.` };
  return result.view
    ? { view: result.view }
    : { error: result.error ?? `No table called ${props.table} yet.` };
}

/**
 * Makes the `query` option of `renderScreen` from a tables store: each query component runs as the
 * agent's query against the person's tables and draws the engine's view (or its reason). The store is
 * asynchronous, so `load(ops)` reads the answers before the screen is drawn (and before `refresh()`).
 *
 * @example
 * ```ts
 * const store = createMemoryStore();
 * const tables = createStoreQuery(store, { owner: 'me', agent: 'coach', now: () => Date.now(), timeZone: 'UTC' });
 * await tables.load(ops);
 * renderScreen(ops, { onTap, query: tables.query });
 * ```
 */
export function createStoreQuery(store: TableStore, context: CallContext): StoreQuery {
  let answers = new Map<string, QueryAnswer>();
  return {
    query: (props, id) =>
      answers.get(id) ?? { error: `The view of ${props.table} was not read yet; draw the screen again.` },
    async load(ops) {
      const next = new Map<string, QueryAnswer>();
      for (const op of ops) {
        if (op.op !== 'add' || op.preset !== 'query') continue;
        next.set(op.id, await answer(store, context, op.props as unknown as QueryProps, op.id));
      }
      answers = next;
    },
  };
}
