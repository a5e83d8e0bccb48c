// The shapes and limits of relay tables (doc3 "Tables call", "Limits"): what every adapter sends and gets back.
import type { ConnectionPrincipal } from '@screen-service/registry/hosts';
import type { Notifier, RateLimiter } from '@screen-service/registry/kernel';
import type { AgentRecord, ScreenRecord, Store } from '@screen-service/registry/model';
import type { CallPace, Column, TableLimits } from '@screen-service/tables-engine';

/** doc3 "Limits" rows the service enforces around the engine's own. */
export const TABLES_CALLS_PER_MINUTE = 60;
export const UNHELD_TABLE_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const MAX_READS_IN_A_ROW = 2;
/** Characters of `lines` or `reply` one call may carry. */
export const MAX_TABLES_CALL_CHARS = 100_000;

/** The tables call's input: `lines`, or a whole `reply`, or neither (list what the agent holds). */
export interface TablesCallInput {
  agent?: string;
  lines?: unknown;
  reply?: unknown;
  /**
   * The thread the lines come from, as the host sees it (`<agent_id>`, or `<agent_id>~<user_id>` for a thread
   * shared with another person); default the owner's own. A shared thread never touches the owner's tables.
   */
  session?: unknown;
}

/** A refused write as the agent hears it (doc3 event 1), with the engine's stable code. */
export interface RefusedLine {
  op: 'row';
  table: string;
  key: string;
  error: string;
  line: string;
  code: string;
}

/** One query's rows. */
export interface TablesResult {
  id: string;
  table: string;
  cols: string[];
  rows: (string | number | boolean | null)[][];
  count: number;
  error?: string;
}

/** A delete that waits for the person's Delete / Keep card. */
export interface PendingView {
  id: string;
  prompt: string;
}

/** Answer for `lines`. */
export interface LinesCallResult {
  ok: { op: 'table' | 'put'; table: string; key?: string; line: string; note?: string }[];
  failed: RefusedLine[];
  results: TablesResult[];
  pending: PendingView[];
}

/** Answer for `reply`: the text to save, with refused writes to tell the agent once after the reply. */
export interface ReplyTextResult {
  text: string;
  events: Omit<RefusedLine, 'code'>[];
  pending: PendingView[];
}

/** Answer for a `reply` that only reads: give `note` to the agent as its next turn. */
export interface ReplyReadResult {
  read: true;
  note: string;
}

/** Answer for a call with no lines: what the agent holds. */
export interface HoldingsResult {
  held: { name: string; rows: number; cols: string[] }[];
  /** `[svc] tables <name>(<n> rows: <col>, ...) ...`, or '' when it holds none. */
  tables: string;
  pending: PendingView[];
}

export type TablesCallResult = LinesCallResult | ReplyTextResult | ReplyReadResult | HoldingsResult;

/** What a screen's table lines did (ADR 0250): they run on the relay store like a tables call. */
export interface ScreenWrites {
  /** Writes that landed. */
  wrote: number;
  /** Refused lines, with the same text `svc_tables` gives. */
  failed: RefusedLine[];
  pending: PendingView[];
  /** Puts the Delete / Keep cards of the screen's deletes in the thread (after the screen itself). */
  appendCards(): Promise<void>;
}

/** A relay table as the person's controls list it. */
export interface TableListItem {
  name: string;
  rows: number;
  cols: string[];
  /** The holding agent, or null when the table is unheld (kept after its agent was removed). */
  agent: { id: string; handle: string; name: string } | null;
  /** Opaque holder key to pass back to give / take / delete. */
  holder: string;
  last_read_at: string | null;
  /** When an unheld table is deleted unless given to an agent first. */
  expires_at: string | null;
}

/** Give a table to an agent (hand-over), optionally under a new name. */
export interface GiveInput {
  table: unknown;
  from: unknown;
  to: unknown;
  name?: unknown;
}

export interface GiveResult {
  table: string;
  agent: { id: string; handle: string; name: string };
  /** True when the name clashed and the table was given as `<name>-<agent>`. */
  renamed: boolean;
}

/** One table of an agent as a device's copy needs it: its digest, and its rows when the copy is stale. */
export interface ReplicaTable {
  name: string;
  /** Changes whenever the table's columns or rows change; equal digests mean equal tables. */
  digest: string;
  cols: Column[];
  /** `[key, ...cells in cols order]` per row in first-written order; absent when the device's copy is current. */
  rows?: (string | number | boolean | null)[][];
}

/** What a device asks: the digests of the tables it holds a copy of, and optionally only some tables. */
export interface ReplicaRequest {
  have?: unknown;
  only?: unknown;
}

/** The tables the agent holds (all, or those asked for), with rows for the stale ones. */
export interface ReplicaAnswer {
  /** True when every table the agent holds is listed (a device drops the copies of tables not listed). */
  complete: boolean;
  tables: ReplicaTable[];
}

/** The relay-table use cases. */
export interface Tables {
  /** `POST {connect_url}/tables`, `svc_tables`, the host and bridge adapters. */
  call(p: ConnectionPrincipal, input: TablesCallInput): Promise<TablesCallResult>;
  /**
   * A screen's `table`, `put` and `drop` lines (svc_show, a host's screen): run on the relay store as a tables
   * call of the agent (limits, refusals and Delete / Keep cards alike); in a shared thread every line is refused.
   */
  screenWrites(agent: AgentRecord, lines: string[], shared: boolean): Promise<ScreenWrites>;
  /** A device's copy of one agent's tables (ADR 0250): what changed since the digests it holds. */
  replica(userId: string, agentId: string, input: ReplicaRequest): Promise<ReplicaAnswer>;
  /** The person's controls: every relay table with rows, holder and last read. */
  list(userId: string): Promise<TableListItem[]>;
  /** `svc_tables_give`: hands a table from its holder (or from unheld) to another agent of the person. */
  give(userId: string, input: GiveInput): Promise<GiveResult>;
  /** Takes a table away from its agent: unheld, deleted after 30 days unless given again. */
  takeAway(userId: string, input: { table: unknown; from: unknown }): Promise<void>;
  /** The person deletes a table (their own tap; no card). */
  remove(userId: string, input: { table: unknown; from: unknown }): Promise<void>;
  /** Before an agent is removed: keeps its tables unheld, or deletes them; drops its pending deletes. */
  releaseAgent(userId: string, agentId: string, keep: boolean): Promise<void>;
  /** Deletes unheld tables whose 30 days are over; returns how many. */
  sweep(): Promise<number>;
  /**
   * The person tapped in a screen: settles a Delete / Keep card (returns fields for the tap event, so the
   * agent hears the outcome) or writes the row the person changed in a query view (returns null); null for
   * every other tap.
   */
  settleCard(screen: ScreenRecord, raw: unknown): Promise<Record<string, unknown> | null>;
}

/** What {@link createTables} is built from. */
export interface TablesDeps {
  store: Store;
  now: () => number;
  limiter: RateLimiter;
  /** IANA zone for `today` / `now` while the account has none (ADR 0253: the account's wins). Default UTC. */
  timeZone?: string;
  /** The pace of one account's calls: budget, per-call cap, yielding (ADR 0254; `createTableWork`). */
  work?: (userId: string) => CallPace;
  limits?: Partial<TableLimits>;
  /** Told when a user's tables change, so the person's controls and devices' copies redraw. */
  notifier?: Pick<Notifier, 'publish'>;
  /** Puts the Delete / Keep card in the agent's thread (a screen row marked as the service's card). */
  appendCard(agent: AgentRecord, lines: string, meta: Record<string, unknown>): Promise<void>;
}
