// How a new agent gets its name, colour and handle: one rule for agents the person creates, profiles a
// host adds and agents the management API binds to a connector.

import type { AgentColor } from '../model/records.js';
import type { AgentRepository } from '../model/repositories.js';
import { colorFromName, slugify } from './agent-status.js';
import * as check from './validate.js';

/**
 * The name and colour of an agent served as profile `ref`: both default from the profile name (doc2 "What
 * the service does"); given values are checked.
 *
 * @example
 * ```ts
 * profileNaming('coder', {}); // { name: 'coder', color: <seeded from 'coder'> }
 * ```
 */
export function profileNaming(
  ref: string,
  input: { name?: unknown; color?: unknown },
): { name: string; color: AgentColor } {
  const name = check.agentName(
    input.name === undefined || input.name === null ? ref.slice(0, 40) : input.name,
  );
  const color = input.color === undefined ? colorFromName(name) : check.agentColor(input.color);
  return { name, color };
}

/**
 * The first free handle of `name` in the user's agents: its slug, then `-2`, `-3`... (at most 40 chars).
 *
 * @example
 * ```ts
 * await freeHandle(store.agents, userId, 'Claude Code'); // 'claude-code' or 'claude-code-2'
 * ```
 */
export async function freeHandle(
  agents: Pick<AgentRepository, 'findByHandle'>,
  userId: string,
  name: string,
): Promise<string> {
  const base = slugify(name);
  for (let i = 1; ; i++) {
    const suffix = i === 1 ? '' : `-${i}`;
    const candidate = base.slice(0, 40 - suffix.length) + suffix;
    if (!(await agents.findByHandle(userId, candidate))) return candidate;
  }
}
