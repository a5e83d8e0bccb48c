// Agent cards: where a card lives, which protocol version and JSON-RPC endpoint it offers, what it says.
import { BridgeError } from './errors.js';

/** The two JSON-RPC protocol versions the bridge speaks. */
export type ProtocolVersion = '1.0' | '0.3';

/** One skill as the card lists it. */
export interface CardSkill {
  id: string;
  name: string;
  description: string;
}

/** What the bridge keeps of a card: enough to talk to the agent and to show it to a person. */
export interface AgentCardInfo {
  /** Where the card was read (query parameters kept). */
  cardUrl: string;
  name: string;
  description: string;
  /** The version the bridge will speak: 1.0 when the card lists both. */
  protocolVersion: ProtocolVersion;
  /** The exact `A2A-Version` header value for 1.0 calls (the card's own spelling, e.g. `1.0`). */
  versionHeader: string;
  /** The JSON-RPC endpoint for `protocolVersion`. */
  endpoint: string;
  /** The card says it streams (Server-Sent Events). */
  streaming: boolean;
  skills: CardSkill[];
  /** Extension URIs the card lists under `capabilities.extensions`. */
  extensions: string[];
  /** The card lists the graph framework's A2A extensions (see {@link isGraphExtension}). */
  graphFramework: boolean;
}

/** Options for {@link readAgentCard}. */
export interface ReadAgentCardOptions {
  /** Decides which extension URIs mark the graph framework; defaults to {@link isGraphExtension}. */
  isGraphExtension?: (uri: string) => boolean;
}

const WELL_KNOWN = '/.well-known/agent-card.json';

/**
 * Turns what a person typed into the card's URL: `/.well-known/agent-card.json` is appended to the path
 * unless the URL already names a card file; the query (which may select an assistant) is kept.
 *
 * @example
 * ```ts
 * cardUrlFor('https://agents.example/graph?assistant_id=a1');
 * // 'https://agents.example/graph/.well-known/agent-card.json?assistant_id=a1'
 * ```
 */
export function cardUrlFor(input: string): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new BridgeError(
      'INVALID_CARD_URL',
      `"${input}" is not a URL; give the agent's address, e.g. https://agent.example.com`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BridgeError(
      'INVALID_CARD_URL',
      `"${input}" uses ${url.protocol}; give an http:// or https:// address for the agent`,
    );
  }
  if (!/\/(agent-card|agent)\.json$/.test(url.pathname)) {
    url.pathname = url.pathname.replace(/\/+$/, '') + WELL_KNOWN;
  }
  url.hash = '';
  return url.toString();
}

/**
 * The default test for the graph framework's A2A extensions: an extension URI from LangChain/LangGraph.
 *
 * @example
 * ```ts
 * isGraphExtension('https://langchain.com/a2a/ext/thread'); // true
 * ```
 */
export function isGraphExtension(uri: string): boolean {
  return /langgraph|langchain/i.test(uri);
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

interface Offer {
  url: string;
  binding: string;
  version: string;
}

// Every (url, binding, version) the card offers, from both card shapes.
function offersOf(card: Json): Offer[] {
  const offers: Offer[] = [];
  if (Array.isArray(card.supportedInterfaces)) {
    for (const i of card.supportedInterfaces) {
      if (!isObject(i)) continue;
      offers.push({
        url: str(i.url),
        binding: str(i.protocolBinding).toUpperCase(),
        version: str(i.protocolVersion),
      });
    }
  }
  const topVersion = str(card.protocolVersion);
  if (typeof card.url === 'string') {
    offers.push({
      url: card.url,
      binding: (str(card.preferredTransport) || 'JSONRPC').toUpperCase(),
      version: topVersion,
    });
  }
  if (Array.isArray(card.additionalInterfaces)) {
    for (const i of card.additionalInterfaces) {
      if (!isObject(i)) continue;
      offers.push({ url: str(i.url), binding: str(i.transport).toUpperCase(), version: topVersion });
    }
  }
  return offers.filter((o) => o.url !== '');
}

function versionOf(spelling: string): ProtocolVersion | undefined {
  if (/^1\.\d+(\.\d+)?$/.test(spelling)) return '1.0';
  if (/^0\.3(\.\d+)?$/.test(spelling)) return '0.3';
  return undefined;
}

/**
 * Reads a card (either version's shape) and picks the JSON-RPC endpoint and protocol version; pure.
 * Throws `INVALID_CARD`, `CARD_NO_JSONRPC` or `CARD_VERSION_UNSUPPORTED` with the reason and a next step.
 *
 * @example
 * ```ts
 * const info = readAgentCard(json, 'http://127.0.0.1:4000/.well-known/agent-card.json');
 * info.protocolVersion; // '1.0'
 * ```
 */
export function readAgentCard(
  json: unknown,
  cardUrl: string,
  options: ReadAgentCardOptions = {},
): AgentCardInfo {
  if (!isObject(json)) {
    throw new BridgeError(
      'INVALID_CARD',
      `the card at ${cardUrl} is not a JSON object; check the agent's address`,
    );
  }
  const name = str(json.name);
  if (name === '') {
    throw new BridgeError('INVALID_CARD', `the card at ${cardUrl} has no "name"; is this an A2A agent card?`);
  }
  const offers = offersOf(json);
  if (offers.length === 0) {
    throw new BridgeError(
      'INVALID_CARD',
      `the card of "${name}" names no endpoint (no supportedInterfaces[] and no url); ask its operator to publish one`,
    );
  }
  const jsonRpc = offers.filter((o) => o.binding === 'JSONRPC');
  if (jsonRpc.length === 0) {
    const seen = [...new Set(offers.map((o) => o.binding || 'unnamed'))].join(', ');
    throw new BridgeError(
      'CARD_NO_JSONRPC',
      `"${name}" offers only ${seen}; the bridge speaks the JSON-RPC binding (gRPC and HTTP+JSON are not supported). ` +
        'Ask the agent operator to enable its JSON-RPC interface, then run the command again.',
    );
  }
  const v10 = jsonRpc.find((o) => versionOf(o.version) === '1.0');
  const v03 = jsonRpc.find(
    (o) => versionOf(o.version) === '0.3' || (o.version === '' && !('supportedInterfaces' in json)),
  );
  const chosen = v10 ?? v03;
  if (chosen === undefined) {
    const seen = [...new Set(jsonRpc.map((o) => o.version || 'none'))].join(', ');
    throw new BridgeError(
      'CARD_VERSION_UNSUPPORTED',
      `"${name}" speaks JSON-RPC protocol version ${seen}; the bridge speaks 1.0 and 0.3. Upgrade the agent's A2A SDK.`,
    );
  }
  let endpoint: string;
  try {
    endpoint = new URL(chosen.url, cardUrl).toString();
  } catch {
    throw new BridgeError(
      'INVALID_CARD',
      `the card of "${name}" has an endpoint that is not a URL: "${chosen.url}"`,
    );
  }
  const capabilities = isObject(json.capabilities) ? json.capabilities : {};
  const extensions = Array.isArray(capabilities.extensions)
    ? capabilities.extensions
        .filter(isObject)
        .map((e) => str(e.uri))
        .filter((u) => u !== '')
    : [];
  const skills = Array.isArray(json.skills)
    ? json.skills
        .filter(isObject)
        .map((s) => ({ id: str(s.id), name: str(s.name), description: str(s.description) }))
    : [];
  const graph = options.isGraphExtension ?? isGraphExtension;
  return {
    cardUrl,
    name,
    description: str(json.description),
    protocolVersion: v10 ? '1.0' : '0.3',
    versionHeader: v10 ? v10.version : '0.3',
    endpoint,
    streaming: capabilities.streaming === true,
    skills,
    extensions,
    graphFramework: extensions.some(graph),
  };
}

/** Options for {@link fetchAgentCard}. */
export interface FetchAgentCardOptions extends ReadAgentCardOptions {
  /** Extra headers (e.g. the authorization header given at `pair`). */
  headers?: Record<string, string>;
  /** Defaults to the global `fetch`. */
  fetch?: typeof fetch;
  /** Give up after this many milliseconds (default 10 000). */
  timeoutMs?: number;
}

/**
 * Fetches and reads an agent's card. Asks with `A2A-Version: 1.0` so that a server speaking both
 * versions answers with its 1.0 card (a card listing both gets 1.0).
 *
 * @example
 * ```ts
 * const card = await fetchAgentCard('http://127.0.0.1:4000');
 * console.log(card.name, card.protocolVersion, card.endpoint);
 * ```
 */
export async function fetchAgentCard(
  input: string,
  options: FetchAgentCardOptions = {},
): Promise<AgentCardInfo> {
  const url = cardUrlFor(input);
  const doFetch = options.fetch ?? fetch;
  let res: Response;
  try {
    res = await doFetch(url, {
      headers: { accept: 'application/json', 'A2A-Version': '1.0', ...options.headers },
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
  } catch (cause) {
    throw new BridgeError(
      'CARD_FETCH_FAILED',
      `could not reach ${url} (${(cause as Error).message}); check the address and that the agent is running`,
      { cause },
    );
  }
  if (!res.ok) {
    throw new BridgeError(
      'CARD_FETCH_FAILED',
      `${url} answered HTTP ${res.status}; check the address` +
        (res.status === 401 || res.status === 403 ? ' and pass the agent key with --header' : ''),
    );
  }
  let json: unknown;
  try {
    json = await res.json();
  } catch (cause) {
    throw new BridgeError('INVALID_CARD', `${url} did not answer JSON; is this an A2A agent?`, { cause });
  }
  return readAgentCard(json, url, options);
}

/**
 * Refuses a card whose JSON-RPC endpoint is on another origin than the card itself (issue 46: a card can
 * point the bridge, and the person's messages, anywhere), unless the person confirmed that origin
 * (`svc-a2a pair ... --allow-endpoint <origin>`, kept in the state file).
 *
 * @throws {BridgeError} `CARD_ENDPOINT_ELSEWHERE`, naming the endpoint and how to confirm it.
 * @example
 * ```ts
 * checkCardEndpoint(card); // throws when card.endpoint is not on card.cardUrl's origin
 * checkCardEndpoint(card, 'https://rpc.example.com'); // fine when that is the endpoint's origin
 * ```
 */
export function checkCardEndpoint(card: AgentCardInfo, allowedOrigin?: string): void {
  const endpoint = new URL(card.endpoint).origin;
  if (endpoint === new URL(card.cardUrl).origin || endpoint === allowedOrigin) return;
  throw new BridgeError(
    'CARD_ENDPOINT_ELSEWHERE',
    `the card at ${card.cardUrl} sends messages to ${card.endpoint}, another address than the card's; ` +
      `if you trust it, run the command again with --allow-endpoint ${endpoint}`,
  );
}
