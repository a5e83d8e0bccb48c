// `svc-a2a card <url>`: what the remote agent says about itself.
import { type AgentCardInfo, fetchAgentCard } from '../card.js';

/**
 * The card as a person reads it: name, protocol version, endpoint, streaming and skills.
 *
 * @example
 * ```ts
 * console.log(formatCard(await fetchAgentCard(url)));
 * ```
 */
export function formatCard(card: AgentCardInfo): string {
  const lines = [
    `Name:      ${card.name}`,
    ...(card.description ? [`About:     ${card.description}`] : []),
    `Protocol:  A2A ${card.protocolVersion} (JSON-RPC)`,
    `Endpoint:  ${card.endpoint}`,
    `Streaming: ${card.streaming ? 'yes' : 'no (the bridge polls the task)'}`,
    `Card:      ${card.cardUrl}`,
  ];
  if (card.skills.length === 0) lines.push('Skills:    none listed');
  else {
    lines.push('Skills:');
    for (const s of card.skills) {
      lines.push(`  - ${s.name || s.id}${s.description ? `: ${s.description}` : ''}`);
    }
  }
  if (card.graphFramework) lines.push('Graph framework extensions: yes (guide and taps go as data parts)');
  return `${lines.join('\n')}\n`;
}

/** Options of the card command. */
export interface CardCommandOptions {
  headers?: Record<string, string>;
  fetch?: typeof fetch;
}

/**
 * Runs `card <url>`: fetches the card and returns the text to print. Throws the card's BridgeError.
 *
 * @example
 * ```ts
 * process.stdout.write(await cardCommand('http://127.0.0.1:4000'));
 * ```
 */
export async function cardCommand(url: string, options: CardCommandOptions = {}): Promise<string> {
  return formatCard(await fetchAgentCard(url, options));
}
