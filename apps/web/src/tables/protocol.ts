// The messages between the app and its tables worker: one request per store call, answered in order.
import type { Op, QueryProps } from '@screen-service/screen-lines';
import type { LineFailure, MemorySnapshot, PendingAnswer, QueryView } from '@screen-service/tables-engine';

/** The person's clock and zone for one call (functions cannot cross to the worker). */
export interface Moment {
  now: number;
  timeZone: string;
}

/** What landing a screen's table lines did. */
export interface Landed {
  /** True when this screen had landed before (its writes were not repeated). */
  already: boolean;
  /** Writes that landed. */
  wrote: number;
  /** Refused lines in doc3's event shape (`{op:'row', table, key, error, line}` plus `code`). */
  failed: LineFailure[];
  pending: PendingAnswer[];
}

/** One query component's answer: the view, or the reason in its place. */
export interface Answer {
  view?: QueryView;
  error?: string;
}

/** Space one agent's tables take on this phone. */
export interface Usage {
  bytes: number;
  tables: number;
  rows: number;
}

/** Every request the worker answers. */
export type Request =
  | { kind: 'land'; agent: string; screen: string; ops: Op[]; at: Moment }
  | { kind: 'answer'; agent: string; queries: { id: string; props: QueryProps }[]; at: Moment }
  | {
      kind: 'writeRow';
      agent: string;
      table: string;
      key: string;
      values: Record<string, boolean>;
      at: Moment;
    }
  | { kind: 'usage'; agent: string }
  | { kind: 'agents' }
  | { kind: 'remove'; agent: string }
  | { kind: 'removeAll' }
  | { kind: 'migrate'; agent: string; snapshot: MemorySnapshot | null; landed: string[] }
  | { kind: 'count'; agent: string; table: string }
  /** How this worker started: SQLite's WebAssembly compiled on the page, or by the worker itself. */
  | { kind: 'boot' };

/** The answer type of each request kind. */
export interface Replies {
  land: Landed;
  answer: Record<string, Answer>;
  writeRow: { failed: LineFailure[] };
  usage: Usage;
  agents: string[];
  remove: boolean;
  removeAll: undefined;
  migrate: { tables: number; rows: number };
  count: number;
  boot: { wasm: 'page' | 'worker' };
}

/** Stable codes of the worker's refusals. */
export type TablesWorkerCode = 'STORAGE_FAILED' | 'STORAGE_UNAVAILABLE' | 'INVALID_REQUEST';

/** A message from the app to the worker. */
/**
 * The app's first message to a new worker: SQLite's WebAssembly, compiled on the page while the worker loaded
 * its script (null when that failed: the worker compiles it itself). A worker whose first message is a
 * request compiles it itself too.
 */
export interface BootMessage {
  wasm: WebAssembly.Module | null;
}

export interface RequestMessage {
  n: number;
  request: Request;
}

/** The worker's answer to request `n`. */
export type ReplyMessage =
  | { n: number; ok: true; value: unknown }
  | { n: number; ok: false; code: TablesWorkerCode; message: string };
