// The asks open on the phone, kept in a file (0600) so a relay that restarts can close what its last run left.
import fs from 'node:fs';
import { writeFileAtomicSync } from '@screen-service/io-kit/atomic-file';

/** One ask that was on the phone when it was written down. */
export interface OpenAsk {
  id: string;
  server: string;
  message: string;
  at: string;
  /** The screen the ask last showed (the one waiting for the person), once the service gave its id. */
  screen?: string;
}

/** The wrapped server process a run started (a stdio command). */
export interface ChildRecord {
  pid: number;
  command: string[];
}

/** Where open asks are written; an in-memory one (no file) forgets them with the process. */
export interface Journal {
  open(ask: OpenAsk): void;
  close(id: string): void;
  /** Writes down the screen an open ask is waiting on (a restart withdraws it). */
  shown(id: string, screenId: string): void;
  /** The asks a previous run left open, removed from the file as they are read. */
  takeStale(): OpenAsk[];
  /** The wrapped server the previous run started, if it wrote one down (read once). */
  takeStaleChild(): ChildRecord | undefined;
  /** Writes down this run's wrapped server. */
  setChild(child: ChildRecord | undefined): void;
}

/**
 * A journal in `file` (written atomically, owner-only). Each change rewrites the whole file: a relay holds a
 * handful of asks at most.
 *
 * @example
 * ```ts
 * const journal = createFileJournal('/home/me/.local/state/svc-relay/github.json');
 * for (const ask of journal.takeStale()) console.log('left open:', ask.message);
 * ```
 */
export function createFileJournal(file: string): Journal {
  let stale: OpenAsk[] = [];
  let staleChild: ChildRecord | undefined;
  let child: ChildRecord | undefined;
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as { open?: OpenAsk[]; child?: ChildRecord };
    stale = Array.isArray(parsed.open) ? parsed.open.filter((a) => typeof a?.id === 'string') : [];
    const c = parsed.child;
    if (c && Number.isInteger(c.pid) && Array.isArray(c.command)) staleChild = c;
  } catch {
    // No file yet, or one cut short by a crash mid-write (it is written atomically, so only a foreign file): start empty.
  }
  const open = new Map<string, OpenAsk>(stale.map((a) => [a.id, a]));
  const save = () =>
    writeFileAtomicSync(
      file,
      `${JSON.stringify({ open: [...open.values()], ...(child ? { child } : {}) }, null, 2)}\n`,
    );
  return {
    open(ask) {
      open.set(ask.id, ask);
      save();
    },
    close(id) {
      if (open.delete(id)) save();
    },
    shown(id, screenId) {
      const ask = open.get(id);
      if (!ask || ask.screen === screenId) return;
      open.set(id, { ...ask, screen: screenId });
      save();
    },
    takeStale() {
      const taken = stale;
      stale = [];
      for (const a of taken) open.delete(a.id);
      if (taken.length) save();
      return taken;
    },
    takeStaleChild() {
      const c = staleChild;
      staleChild = undefined;
      return c;
    },
    setChild(c) {
      child = c;
      save();
    },
  };
}

/** A journal that keeps nothing past the process (no restart handling). */
export function createMemoryJournal(): Journal {
  return {
    open() {},
    close() {},
    shown() {},
    takeStale: () => [],
    takeStaleChild: () => undefined,
    setChild() {},
  };
}
