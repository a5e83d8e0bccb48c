// Shared agents taken back (doc2 Events): each is named once ('<agent name> is no longer shared with you')
// in the list and the thread until the next launch. Kept in memory only: a reload is a new launch.
import type { Agent } from './api.js';

const known = new Map<string, string>();
const gone = new Map<string, string>();

/** Notes the shared rows of a fresh list; a shared agent that left it since the last list is gone. */
export function noteSharedList(agents: Agent[]): void {
  const now = new Set(agents.filter((a) => a.shared).map((a) => a.id));
  for (const [id, name] of known) if (!now.has(id)) gone.set(id, name);
  known.clear();
  for (const a of agents) if (a.shared) known.set(a.id, a.name);
  for (const id of now) gone.delete(id);
}

/** Notes one shared agent seen (e.g. an open thread), so its revoke can be named. */
export function noteShared(id: string, name: string): void {
  known.set(id, name);
}

/** Marks an agent gone (the thread learned it first, from `agent_not_yours`). */
export function markGone(id: string): void {
  const name = known.get(id);
  if (name) gone.set(id, name);
  known.delete(id);
}

/** The line for a gone agent, or null. */
export function goneLine(id: string): string | null {
  const name = gone.get(id);
  return name ? `${name} is no longer shared with you` : null;
}

/** Every gone agent's line, for the list. */
export function goneLines(): string[] {
  return [...gone.values()].map((name) => `${name} is no longer shared with you`);
}
