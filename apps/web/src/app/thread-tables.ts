// One thread's tables: lands each drawn screen's table lines once, feeds its query views, shows storage errors in their place.
import { format, type Op, type QueryProps } from '@screen-service/screen-lines';
import type { QueryAnswer, ScreenHandle } from '@screen-service/screen-view';
import type { LineFailure } from '@screen-service/tables-engine';
import type { Answer } from '../tables/protocol.js';
import { moment, type PhoneTables, PhoneTablesError, phoneTables } from './phone-tables.js';

/** doc3 event 1: a write the phone refused, told to the agent once. */
export interface RefusedWrite {
  op: 'row';
  table: string;
  key: string;
  error: string;
  line: string;
}

/** Options of `threadTables`. */
export interface ThreadTablesOptions {
  /** Tells the agent about refused writes of a screen (doc3 event 1). */
  report(screenId: string, refused: RefusedWrite[]): void;
  /** The tables (default: the app's worker). */
  tables?: Promise<PhoneTables>;
}

interface Tracked {
  handle: ScreenHandle;
  queries: { id: string; props: QueryProps }[];
}

const LOADING = 'Loading tables…';
const SEP = '\u0000';

function writesOf(ops: Op[]) {
  return ops.filter((op) => op.op === 'table' || op.op === 'drop' || op.op === 'put');
}

function refusedOf(failed: LineFailure[]): RefusedWrite[] {
  return failed.map(({ table, key, error, line }) => ({ op: 'row', table, key, error, line }));
}

/**
 * Creates the tables side of one thread view.
 *
 * @example
 * ```ts
 * const tables = threadTables(agentId, { report: (screen, refused) => post(screen, refused) });
 * const handle = renderScreen(ops, { query: tables.queryFor(id), onTap });
 * tables.track(id, ops, handle);
 * ```
 */
export function threadTables(agentId: string, options: ThreadTablesOptions) {
  const tables = options.tables ?? phoneTables();
  const screens = new Map<string, Tracked>();
  const answers = new Map<string, Answer>();
  const broken = new Map<string, string>();
  const reported = new Set<string>();
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

  function showBroken(screenId: string, message: string): void {
    broken.set(screenId, message);
    const tracked = screens.get(screenId);
    if (!tracked) return;
    if (tracked.queries.length > 0) tracked.handle.refresh();
    else if (!tracked.handle.element.querySelector('.svc-tables-error')) {
      const note = tracked.handle.element.ownerDocument.createElement('p');
      note.className = 'svc-note svc-tables-error';
      note.setAttribute('role', 'alert');
      note.textContent = message;
      tracked.handle.element.append(note);
    }
  }

  async function land(screenId: string, ops: Op[]): Promise<void> {
    const writes = writesOf(ops);
    try {
      const landed = await (await tables).request({
        kind: 'land',
        agent: agentId,
        screen: screenId,
        ops: writes,
        at: moment(),
      });
      if (landed.failed.length > 0 && !reported.has(screenId)) {
        reported.add(screenId);
        options.report(screenId, refusedOf(landed.failed));
      }
      // A put that landed redraws every live query of the thread; otherwise only this screen's.
      await refresh(landed.wrote > 0 ? [...screens.keys()] : [screenId]);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      showBroken(screenId, message);
      if (error instanceof PhoneTablesError && error.code === 'STORAGE_FAILED' && !reported.has(screenId)) {
        reported.add(screenId);
        options.report(
          screenId,
          writes.map((op) => ({
            op: 'row',
            table: op.op === 'put' ? op.table : op.name,
            key: op.op === 'put' ? (op.key ?? '') : '',
            error: message,
            line: format([op]),
          })),
        );
      }
    }
  }

  return {
    /** The renderer's `query` option for one screen. */
    queryFor(screenId: string): (props: QueryProps, id: string) => QueryAnswer {
      return (_props, id) => {
        const failed = broken.get(screenId);
        if (failed) return { error: failed };
        return answers.get(`${screenId}${SEP}${id}`) ?? { error: LOADING };
      };
    },
    /** Lands the screen's table lines (once ever) and draws its queries; resolves when done. */
    track(screenId: string, ops: Op[], handle: ScreenHandle): Promise<void> {
      const queries = ops.flatMap((op) =>
        op.op === 'add' && op.preset === 'query'
          ? [{ id: op.id, props: op.props as unknown as QueryProps }]
          : [],
      );
      screens.set(screenId, { handle, queries });
      return serial(() => land(screenId, ops));
    },
    /** Writes a row the person changed in a view, then redraws the thread's queries. */
    writeRow(table: string, key: string, values: Record<string, boolean>): Promise<void> {
      return serial(async () => {
        await (await tables).request({ kind: 'writeRow', agent: agentId, table, key, values, at: moment() });
        await refresh([...screens.keys()]);
      });
    },
    /** Waits for every landing and redraw asked so far. */
    settled(): Promise<void> {
      return serial(async () => {});
    },
  };
}
