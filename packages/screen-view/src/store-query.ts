// createStoreQuery: answers query components from a tables-engine store (the phone's or the playground's).
import type { QueryProps } from '@screen-service/screen-lines/catalog';
import { type CallContext, runOps, type TableStore } from '@screen-service/tables-engine';
import type { QueryAnswer } from './types.js';

/**
 * Makes the `query` option of `renderScreen` from a tables store: each query component runs as the
 * agent's query against the person's tables and draws the engine's view (or its reason).
 *
 * @example
 * ```ts
 * const store = createMemoryStore();
 * const query = createStoreQuery(store, { owner: 'me', agent: 'coach', now: () => Date.now(), timeZone: 'UTC' });
 * renderScreen(ops, { onTap, query });
 * ```
 */
export function createStoreQuery(
  store: TableStore,
  context: CallContext,
): (props: QueryProps, id: string) => QueryAnswer {
  return (props, id) => {
    const answer = runOps(store, {
      ...context,
      ops: [{ op: { op: 'add', preset: 'query', id, props }, line: `query ${props.table}` }],
    });
    const result = answer.results[0];
    if (!result) return { error: answer.failed[0]?.error ?? `No table called ${props.table} yet.` };
    return result.view
      ? { view: result.view }
      : { error: result.error ?? `No table called ${props.table} yet.` };
  };
}
