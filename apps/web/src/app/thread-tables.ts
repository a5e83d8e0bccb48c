// One thread's tables: its query views read this device's copy at once; the copy follows the service (ADR 0250).
import type { TablesReplica } from '@screen-service/person-api';
import type { Answer } from '@screen-service/phone-offline/tables';
import type { Op, QueryProps } from '@screen-service/screen-lines';
import type { QueryAnswer, ScreenHandle } from '@screen-service/screen-view';
import { call } from './api.js';
import { moment, type PhoneTables, PhoneTablesError, phoneTables } from './phone-tables.js';

/** Asks the service what changed since the digests this device holds. */
export type FetchCopy = (
  agentId: string,
  have: Record<string, string>,
  only?: string[],
) => Promise<TablesReplica>;

/** Options of `threadTables`. */
export interface ThreadTablesOptions {
  /** The tables (default: the app's worker). */
  tables?: Promise<PhoneTables>;
  /** Default: `POST /agents/{id}/tables` of the person API. */
  fetchCopy?: FetchCopy;
}

interface Tracked {
  handle: ScreenHandle;
  queries: { id: string; props: QueryProps }[];
}

const LOADING = 'Loading tables…';
const SEP = '\u0000';

const fetchFromService: FetchCopy = (agentId, have, only) =>
  call<TablesReplica>('POST', `/agents/${agentId}/tables`, { have, ...(only ? { only } : {}) });

/**
 * Brings this device's copy of one agent's tables up to date (all tables, or `only` those named by a live
 * event); returns the tables whose rows changed here.
 */
export async function syncCopy(
  agentId: string,
  only?: string[],
  options: ThreadTablesOptions = {},
): Promise<string[]> {
  const tables = await (options.tables ?? phoneTables());
  const have = await tables.request({ kind: 'digests', agent: agentId });
  const answer = await (options.fetchCopy ?? fetchFromService)(agentId, have, only);
  const copied = await tables.request({
    kind: 'copy',
    agent: agentId,
    complete: answer.complete,
    tables: answer.tables,
    ...(only ? { asked: only } : {}),
  });
  return copied.changed;
}

/**
 * Creates the tables side of one thread view: starts bringing the copy up to date at once.
 *
 * @example
 * ```ts
 * const tables = threadTables(agentId);
 * const handle = renderScreen(ops, { query: tables.queryFor(id), onTap });
 * tables.track(id, ops, handle);
 * ```
 */
export function threadTables(agentId: string, options: ThreadTablesOptions = {}) {
  const tables = options.tables ?? phoneTables();
  const screens = new Map<string, Tracked>();
  const answers = new Map<string, Answer>();
  /** Until the first copy came (or could not), a table missing here may exist on the service: not "No table". */
  let caughtUp = false;
  /** Why this device cannot keep the copy (its storage is full): shown in place of every view until it can. */
  let broken: string | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  const serial = (fn: () => Promise<void>) => {
    queue = queue.then(fn).catch(() => {});
    return queue as Promise<void>;
  };

  async function refresh(ids: string[]): Promise<void> {
    const queries = ids.flatMap((screen) =>
      (screens.get(screen)?.queries ?? []).map((q) => ({ id: `${screen}${SEP}${q.id}`, props: q.props })),
    );
    if (queries.length === 0) return;
    try {
      const got = await (await tables).request({ kind: 'answer', agent: agentId, queries, at: moment() });
      for (const [id, answer] of Object.entries(got)) answers.set(id, answer);
    } catch (error) {
      for (const q of queries) answers.set(q.id, { error: (error as Error).message });
    }
    for (const id of ids) screens.get(id)?.handle.refresh();
  }

  /** Screens with a query on one of `names`. */
  const showing = (names: string[]) =>
    [...screens].filter(([, t]) => t.queries.some((q) => names.includes(q.props.table))).map(([id]) => id);

  function sync(only?: string[]): Promise<void> {
    return serial(async () => {
      try {
        const changed = await syncCopy(agentId, only, options);
        const redraw = !caughtUp || broken !== null;
        caughtUp = true;
        broken = null;
        await refresh(redraw ? [...screens.keys()] : showing(changed));
      } catch (error) {
        if (error instanceof PhoneTablesError) {
          // This device could not keep the copy: say so in place of the views (the service still has the rows).
          broken = error.message;
          caughtUp = true;
          for (const t of screens.values()) t.handle.refresh();
        } else if (!caughtUp) {
          // Offline, or the service could not answer: the views keep drawing the copy this device has.
          caughtUp = true;
          await refresh([...screens.keys()]);
        }
      }
    });
  }

  sync();

  return {
    /** The renderer's `query` option for one screen. */
    queryFor(screenId: string): (props: QueryProps, id: string) => QueryAnswer {
      return (_props, id) =>
        broken !== null ? { error: broken } : (answers.get(`${screenId}${SEP}${id}`) ?? { error: LOADING });
    },
    /** Draws the screen's queries from this device's copy; resolves when drawn. */
    track(screenId: string, ops: Op[], handle: ScreenHandle): Promise<void> {
      const queries = ops.flatMap((op) =>
        op.op === 'add' && op.preset === 'query'
          ? [{ id: op.id, props: op.props as unknown as QueryProps }]
          : [],
      );
      screens.set(screenId, { handle, queries });
      return caughtUp ? serial(() => refresh([screenId])) : serial(async () => {});
    },
    /** The service said these tables (or, without names, any) changed: copy them and redraw their views. */
    changed(names?: string[] | null): Promise<void> {
      return sync(names ?? undefined);
    },
    /** Shows a row the person changed in a view at once (the tap writes it on the service too). */
    writeRow(table: string, key: string, values: Record<string, boolean>): Promise<void> {
      return serial(async () => {
        await (await tables).request({ kind: 'writeRow', agent: agentId, table, key, values, at: moment() });
        await refresh(showing([table]));
      });
    },
    /** Waits for every copy and redraw asked so far. */
    settled(): Promise<void> {
      return serial(async () => {});
    },
  };
}
