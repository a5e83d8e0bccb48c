// The playground's tables: a memory store saved to localStorage, and a scratch copy the live preview writes into.
import type { Op } from '@screen-service/screen-lines';
import {
  type CallContext,
  createMemoryStore,
  type LineFailure,
  type MemorySnapshot,
  type MemoryStore,
  type OpLine,
  runOps,
} from '@screen-service/tables-engine';

const KEY = 'svc-playground-tables';
export const OWNER = 'playground';

export function callContext(): CallContext {
  return {
    owner: OWNER,
    agent: 'playground',
    now: () => Date.now(),
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
  };
}

function readSnapshot(): MemorySnapshot | undefined {
  try {
    const raw = localStorage.getItem(KEY);
    const value = raw ? (JSON.parse(raw) as MemorySnapshot) : undefined;
    return value?.version === 1 ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The saved store: every change is written back to localStorage. */
export function openSavedTables(): MemoryStore {
  const snapshot = readSnapshot();
  return createMemoryStore({
    ...(snapshot ? { snapshot } : {}),
    onChange: (s) => localStorage.setItem(KEY, JSON.stringify(s.snapshot())),
  });
}

/** A throwaway copy of the saved tables for the live preview. */
export function scratchCopy(saved: MemoryStore): MemoryStore {
  return createMemoryStore({ snapshot: saved.snapshot() });
}

/** The table ops of a parse (table create, table drop, put) with their source lines. */
export function tableOps(
  ops: Op[],
  spans: { line: number; text: string }[],
): (OpLine & { lineNo: number })[] {
  const out: (OpLine & { lineNo: number })[] = [];
  ops.forEach((op, i) => {
    if (op.op === 'table' || op.op === 'drop' || op.op === 'put') {
      out.push({ op, line: spans[i]?.text ?? '', lineNo: spans[i]?.line ?? 0 });
    }
  });
  return out;
}

/** Runs table ops; refused lines come back with their line number. */
export async function runTableOps(
  store: MemoryStore,
  ops: (OpLine & { lineNo: number })[],
): Promise<{ lineNo: number; failure: LineFailure }[]> {
  if (ops.length === 0) return [];
  const answer = await runOps(store, { ...callContext(), ops });
  return answer.failed.map((failure) => ({
    lineNo: ops.find((o) => o.line === failure.line)?.lineNo ?? 0,
    failure,
  }));
}
