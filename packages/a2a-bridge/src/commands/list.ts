// `svc-a2a list` and `remove`: the bridge's own bookkeeping of the agents it serves (never prints a secret).
import { BridgeError } from '../errors.js';
import type { BridgeState } from '../state-file.js';
import type { BridgeHome } from './home.js';

/**
 * The agents this machine serves, one block each: id, name, kind, where it lives, header names only.
 *
 * @example
 * ```ts
 * process.stdout.write(formatAgents(await home.state.read()));
 * ```
 */
export function formatAgents(state: BridgeState): string {
  const lines: string[] = [];
  lines.push(
    state.service
      ? `Service:   ${state.service.connectUrl} (connection "${state.service.name}")`
      : 'Service:   not paired yet (svc-a2a pair <code> --card <url>)',
  );
  const agents = Object.entries(state.agents);
  if (agents.length === 0) lines.push('Agents:    none');
  for (const [id, a] of agents) {
    lines.push(
      '',
      `${a.name ?? id} (@${a.handle ?? '?'})`,
      `  agent:    ${id}`,
      `  profile:  ${a.remoteRef ?? '?'}`,
      a.kind === 'webhook' ? `  webhook:  ${a.webhookUrl}` : `  card:     ${a.cardUrl ?? '?'}`,
    );
    const headers = Object.keys(a.headers ?? {});
    if (headers.length > 0) lines.push(`  headers:  ${headers.join(', ')} (values kept in the state file)`);
    if (a.turn) lines.push(`  in flight: a turn of ${a.turn.rows.length} row(s)`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * `remove <agent>`: forgets an agent (by agent id, profile or name). The agent stays in the person's app
 * until they remove it there; `run` stops serving it.
 *
 * @example
 * ```ts
 * await removeCommand(home, 'a2a-weather');
 * ```
 */
export async function removeCommand(home: BridgeHome, which: string): Promise<string> {
  const state = await home.state.read();
  const match = Object.entries(state.agents).find(
    ([id, a]) => id === which || a.remoteRef === which || a.name === which || a.handle === which,
  );
  if (!match) {
    throw new BridgeError(
      'UNKNOWN_AGENT',
      `no agent "${which}" here; svc-a2a list shows the agents this machine serves`,
    );
  }
  await home.state.remove(match[0]);
  return `Removed ${match[1].name ?? match[0]} from this bridge. It stays in the app until you delete it there.\n`;
}
