// The read-only `receipts` table (issue 40, ADR 0273): the agent's own thread's signed receipts as rows, queried
// by the tables engine's own query evaluation; writes to the name are refused.
import type { AgentRecord, ReceiptRecord, Store } from '@screen-service/registry/model';
import { type Op, parse } from '@screen-service/screen-lines';
import {
  type Column,
  createMemoryStore,
  type LineFailure,
  type TableRef,
  type TableStore,
} from '@screen-service/tables-engine';

/** The reserved table name: the service keeps it, every agent reads its own thread's receipts under it. */
export const RECEIPTS_TABLE = 'receipts';

const COLUMNS: Column[] = [
  { name: 'seq', type: 'number' },
  { name: 'at', type: 'text' },
  { name: 'decided_by', type: 'text' },
  { name: 'how', type: 'text' },
  { name: 'step', type: 'text' },
  { name: 'screen_id', type: 'text' },
  { name: 'message_id', type: 'text' },
  { name: 'kid', type: 'text' },
  { name: 'hash', type: 'text' },
];

const READ_ONLY =
  `receipts is read-only: the service keeps it (one signed receipt per answer in this thread) and no line may ` +
  `change it. Read it with "query receipts" (for example "query receipts where=decided_by=default"); keep your ` +
  `own notes in a table with another name.`;

/** The table a line writes, when it is a write (`table create`, `table drop`, `put`). */
function writtenTable(op: Op): string | undefined {
  if (op.op === 'table' || op.op === 'drop') return op.name;
  if (op.op === 'put') return op.table;
  return undefined;
}

function isReceiptsQuery(op: Op): boolean {
  return (
    op.op === 'add' && op.preset === 'query' && (op.props as { table?: unknown }).table === RECEIPTS_TABLE
  );
}

/**
 * Splits a call's lines: writes to `receipts` become refusals (their lines blanked, so every other line keeps
 * its line number), and says whether any line reads `receipts`.
 */
export function splitReceiptLines(lines: string): { lines: string; refused: LineFailure[]; reads: boolean } {
  const source = lines.split(/\r?\n/);
  const parsed = parse(lines);
  const refused: LineFailure[] = [];
  let reads = false;
  parsed.ops.forEach((op, i) => {
    const span = parsed.spans[i]!;
    if (isReceiptsQuery(op)) reads = true;
    if (writtenTable(op) !== RECEIPTS_TABLE) return;
    refused.push({
      op: 'row',
      table: RECEIPTS_TABLE,
      key: '',
      error: READ_ONLY,
      line: span.text,
      code: 'INVALID_LINE',
      lineNumber: span.line,
    });
    source[span.line - 1] = '';
  });
  return { lines: source.join('\n'), refused, reads };
}

/**
 * Reads a receipt's payload (it was signed by this service; the chain is `verify`'s job): format 1's compact
 * JWS, or format 2's payload, stored as canonical JSON (ADR 0294).
 */
function payloadOf(jws: string): Record<string, unknown> {
  try {
    if (jws.startsWith('{')) return JSON.parse(jws) as Record<string, unknown>;
    const part = jws.split('.')[1] ?? '';
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
}

const textOf = (v: unknown) => (typeof v === 'string' ? v : null);

function rowOf(r: ReceiptRecord): Record<string, string | number | null> {
  const p = payloadOf(r.jws);
  return {
    seq: r.seq,
    at: textOf(p.at) ?? new Date(r.createdAt).toISOString(),
    // person, default, agent (a withdraw, ADR 0279) or escalation, as the signed receipt says.
    decided_by: ['default', 'agent', 'escalation'].includes(String(p.decided_by))
      ? String(p.decided_by)
      : 'person',
    how: textOf(p.how),
    step: textOf(p.step),
    screen_id: textOf((p.screen as { id?: unknown } | undefined)?.id),
    message_id: r.messageId,
    kid: r.kid,
    hash: r.hash,
  };
}

/** The thread's newest `max` receipts, oldest first (read in pages along the chain). */
async function threadReceipts(store: Store, agent: AgentRecord, max: number): Promise<ReceiptRecord[]> {
  const key = { agentId: agent.id, userId: agent.userId };
  const all: ReceiptRecord[] = [];
  let after = 0;
  for (;;) {
    const page = await store.receipts.listByThread(key, after, 500);
    all.push(...page);
    if (all.length > max) all.splice(0, all.length - max);
    if (page.length < 500) return all;
    after = page[page.length - 1]!.seq;
  }
}

/**
 * A table store for one run of `agent`'s lines: the agent's `receipts` is an in-memory table of its own
 * thread's receipts (that agent with its owner, never another thread); every other table is `engine`'s.
 */
export async function withReceipts(
  engine: TableStore,
  store: Store,
  agent: AgentRecord,
  maxRows: number,
): Promise<TableStore> {
  const memory = createMemoryStore();
  const ref: TableRef = { owner: agent.userId, holder: agent.id, name: RECEIPTS_TABLE };
  await memory.defineTable(ref, COLUMNS);
  for (const r of await threadReceipts(store, agent, maxRows)) {
    await memory.insertRow(ref, `r${r.seq}`, rowOf(r));
  }
  const ours = (r: TableRef) => r.owner === ref.owner && r.holder === ref.holder && r.name === ref.name;
  return new Proxy(engine, {
    get(target, prop) {
      if (prop === 'getTable') return (r: TableRef) => (ours(r) ? memory.getTable(r) : target.getTable(r));
      if (prop === 'query') {
        return (r: TableRef, plan: Parameters<TableStore['query']>[1]) =>
          ours(r) ? memory.query(r, plan) : target.query(r, plan);
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
