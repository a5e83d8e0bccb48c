// The relay tables (doc3 "Tables call", "Table holding"): one set of tables per agent, every adapter ends here.
import { createDeleteCards } from './delete-cards.js';
import { createTableControls } from './table-controls.js';
import { createTableReplica } from './table-replica.js';
import { createTablesCall } from './tables-call.js';
import { createTablesContext } from './tables-context.js';
import type { Tables, TablesDeps } from './tables-model.js';

export * from './tables-model.js';

/**
 * Creates the relay-table use cases over the store's `relay` repository: the tables call, a screen's table
 * lines, the devices' copies, the person's controls and the taps on tables in a thread.
 *
 * @example
 * ```ts
 * const tables = createTables({ store, now, limiter, appendCard });
 * await tables.call(principal, { agent: 'coach', lines: 'table create Weights Date:date Weight:number:kg' });
 * ```
 */
export function createTables(deps: TablesDeps): Tables {
  const ctx = createTablesContext(deps);
  return {
    ...createTablesCall(ctx),
    ...createTableReplica(ctx),
    ...createTableControls(ctx),
    ...createDeleteCards(ctx),
    sweep: ctx.sweep,
  };
}
