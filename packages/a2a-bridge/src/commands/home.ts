// Where the bridge keeps its files, and the agent target (a card or a webhook) a command names.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '@screen-service/io-kit/command-line';
import { type AgentCardInfo, checkCardEndpoint, fetchAgentCard } from '../card.js';
import { BridgeError } from '../errors.js';
import { Outbox } from '../outbox.js';
import { type AgentState, StateFile } from '../state-file.js';

/** The bridge's folder: `state.json` (0600) and `outbox/` (0700). */
export interface BridgeHome {
  dir: string;
  state: StateFile;
  outbox: Outbox;
}

/** Default folder: `~/.svc-a2a`. */
export function defaultHomeDir(): string {
  return join(homedir(), '.svc-a2a');
}

/** Opens the bridge's folder (files are created on first write). */
export function openHome(dir: string): BridgeHome {
  return { dir, state: new StateFile(join(dir, 'state.json')), outbox: new Outbox(join(dir, 'outbox')) };
}

/** What a `pair` or `add` binds: a remote agent's card, or a webhook endpoint. */
export interface AgentTarget {
  kind: 'a2a' | 'webhook';
  name: string;
  skills: { name: string; description?: string }[];
  cardUrl?: string;
  webhookUrl?: string;
  card?: AgentCardInfo;
  /** The endpoint origin the person confirmed (`--allow-endpoint`) when it is not the card's. */
  endpointOrigin?: string;
}

/** Options naming a target on the command line. */
export interface TargetOptions {
  card?: string | undefined;
  webhook?: string | undefined;
  name?: string | undefined;
  headers: Record<string, string>;
  fetch?: typeof fetch | undefined;
  /** `--allow-endpoint <origin>`: the person confirms a card endpoint on another origin than the card. */
  allowEndpoint?: string | undefined;
}

/** Thrown for a command line the CLI cannot run (no target or two, a bad option); it answers with exit code 2. */
export { UsageError };

/** Exactly one of `--card` and `--webhook` (a usage error otherwise). */
export function checkTargetOptions(options: Pick<TargetOptions, 'card' | 'webhook'>): void {
  if ((options.card === undefined) === (options.webhook === undefined)) {
    throw new UsageError('give either --card <url> (an A2A agent) or --webhook <url> (a webhook agent)');
  }
}

/**
 * Reads the target: the card is fetched and checked (gRPC/HTTP+JSON-only cards are refused with the
 * reason); a webhook must be an http(s) URL.
 */
export async function readTarget(options: TargetOptions): Promise<AgentTarget> {
  checkTargetOptions(options);
  if (options.card !== undefined) {
    const card = await fetchAgentCard(options.card, {
      headers: options.headers,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    const allowed = options.allowEndpoint?.replace(/\/+$/, '');
    checkCardEndpoint(card, allowed);
    const foreign = new URL(card.endpoint).origin !== new URL(card.cardUrl).origin;
    return {
      kind: 'a2a',
      ...(foreign ? { endpointOrigin: new URL(card.endpoint).origin } : {}),
      name: options.name ?? card.name,
      skills: card.skills.map((s) => ({
        name: s.name || s.id,
        ...(s.description ? { description: s.description } : {}),
      })),
      cardUrl: card.cardUrl,
      card,
    };
  }
  let url: URL;
  try {
    url = new URL(options.webhook!);
  } catch {
    throw new BridgeError(
      'INVALID_WEBHOOK_URL',
      `${options.webhook} is not a URL; give the full https:// address`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new BridgeError(
      'INVALID_WEBHOOK_URL',
      `${options.webhook} is not an http(s) URL; give the https:// address`,
    );
  }
  // Plain http only for development on this machine: elsewhere the turns (the person's words) and the
  // signatures would cross the network readable (issue 46).
  if (url.protocol === 'http:' && !['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) {
    throw new BridgeError(
      'INVALID_WEBHOOK_URL',
      `${options.webhook} uses plain http; give the https:// address (http only to this machine, for development)`,
    );
  }
  return { kind: 'webhook', name: options.name ?? url.hostname, skills: [], webhookUrl: url.href };
}

/** A profile name (`remote_ref`) for a new agent: from its name, unique among the bridge's agents. */
export function freeRemoteRef(name: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  const base =
    name
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 48) || 'agent';
  let ref = `a2a-${base}`;
  for (let n = 2; used.has(ref); n++) ref = `a2a-${base}-${n}`;
  return ref;
}

/** The state kept for a newly bound agent. */
export function agentStateFor(
  target: AgentTarget,
  remoteRef: string,
  handle: string,
  headers: Record<string, string>,
  secret: string | undefined,
): AgentState {
  return {
    kind: target.kind,
    remoteRef,
    name: target.name,
    handle,
    ...(target.cardUrl ? { cardUrl: target.cardUrl } : {}),
    ...(target.endpointOrigin ? { endpointOrigin: target.endpointOrigin } : {}),
    ...(target.webhookUrl ? { webhookUrl: target.webhookUrl } : {}),
    ...(secret ? { webhookSecret: secret } : {}),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
  };
}
