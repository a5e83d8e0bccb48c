// The messages between the app and its tables worker: one request per store call, answered in order.
import type { QueryProps } from '@screen-service/screen-lines';
import type { Cell, Column, LineFailure, QueryView } from '@screen-service/tables-engine';

/** The person's clock and zone for one call (functions cannot cross to the worker). */
export interface Moment {
  now: number;
  timeZone: string;
}

/** One table of the service's answer for this device's copy (ADR 0250); `rows` only when the copy is stale. */
export interface CopyTable {
  name: string;
  digest: string;
  cols: Column[];
  rows?: Cell[][];
}

/** What bringing a copy up to date changed. */
export interface Copied {
  /** Tables whose rows were replaced or dropped (their views redraw). */
  changed: string[];
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
  /** The digest of each table this device keeps a copy of. */
  | { kind: 'digests'; agent: string }
  /**
   * Brings the copy up to date with the service's answer: `complete` drops every table it does not list,
   * otherwise only those of `asked` it does not list (the agent no longer holds them).
   */
  | { kind: 'copy'; agent: string; complete: boolean; tables: CopyTable[]; asked?: string[] }
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
  | { kind: 'count'; agent: string; table: string }
  /** How this worker started: SQLite's WebAssembly compiled on the page, or by the worker itself. */
  | { kind: 'boot' };

/** The answer type of each request kind. */
export interface Replies {
  digests: Record<string, string>;
  copy: Copied;
  answer: Record<string, Answer>;
  writeRow: { failed: LineFailure[] };
  usage: Usage;
  agents: string[];
  remove: boolean;
  removeAll: undefined;
  count: number;
  /** Where SQLite's WebAssembly was compiled, and where the copies are kept (memory when another tab holds OPFS). */
  boot: { wasm: 'page' | 'worker'; storage: 'opfs' | 'memory' };
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
