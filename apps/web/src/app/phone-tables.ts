// The app's side of the tables worker: this device's copy of each agent's tables (SQLite on OPFS, one database per agent; ADR 0250).
import type {
  BootMessage,
  Replies,
  ReplyMessage,
  Request,
  RequestMessage,
  TablesWorkerCode,
} from '@screen-service/phone-offline/tables';
import { personZone } from './time-zone.js';

/** A worker refusal: the storage failed (full, or another tab holds it) or a request was malformed. */
export class PhoneTablesError extends Error {
  readonly code: TablesWorkerCode;

  constructor(code: TablesWorkerCode, message: string) {
    super(message);
    this.name = 'PhoneTablesError';
    this.code = code;
  }
}

/** Sends requests to the tables worker; answers come back in request order. */
export interface PhoneTables {
  request<K extends Request['kind']>(request: Extract<Request, { kind: K }>): Promise<Replies[K]>;
}

// Keys of the JSON copies an older app kept in localStorage (ADR 0125), dropped at start.
const LEGACY = 'svc-tables-';
const LEGACY_LANDED = 'svc-tables-landed-';

/** The person's clock and zone (the account's, ADR 0253), read when a call is made. */
export function moment(): { now: number; timeZone: string } {
  return { now: Date.now(), timeZone: personZone() };
}

function connect(url: URL): PhoneTables {
  const worker = new Worker(url, { type: 'module', name: 'svc-tables' });
  // SQLite's WebAssembly compiles here while the worker loads and parses its script, and goes to it as the
  // first message (a WebAssembly.Module crosses to a worker without copying); requests follow once it went.
  const booted = WebAssembly.compileStreaming(fetch(new URL('sqlite3.wasm', url)))
    .catch(() => null)
    .then((wasm) => worker.postMessage({ wasm } satisfies BootMessage));
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let next = 1;
  worker.onmessage = (event: MessageEvent<ReplyMessage>) => {
    const reply = event.data;
    const w = waiting.get(reply.n);
    waiting.delete(reply.n);
    if (!w) return;
    if (reply.ok) w.resolve(reply.value);
    else w.reject(new PhoneTablesError(reply.code, reply.message));
  };
  worker.onerror = (event) => {
    const error = new PhoneTablesError(
      'STORAGE_UNAVAILABLE',
      `The tables could not start here (${event.message}).`,
    );
    for (const w of waiting.values()) w.reject(error);
    waiting.clear();
  };
  return {
    request(request) {
      const n = next++;
      return new Promise((resolve, reject) => {
        waiting.set(n, { resolve: resolve as (v: unknown) => void, reject });
        void booted.then(() => worker.postMessage({ n, request } satisfies RequestMessage));
      });
    },
  };
}

/** Forgets the old localStorage copies (sign-out, agent removed). */
function dropLegacy(agent?: string): void {
  const keys: string[] = [];
  for (let i = 0; i < localStorage.length; i++) {
    const k = localStorage.key(i) ?? '';
    if (!k.startsWith(LEGACY)) continue;
    const owner = k.startsWith(LEGACY_LANDED) ? k.slice(LEGACY_LANDED.length) : k.slice(LEGACY.length);
    if (agent === undefined || owner === agent) keys.push(k);
  }
  for (const k of keys) localStorage.removeItem(k);
}

let shared: Promise<PhoneTables> | undefined;

/**
 * The app's tables (one worker per page). The first call starts the worker, asks the browser to keep
 * the storage (`navigator.storage.persist()`) and forgets the JSON copies an older app kept in localStorage
 * (the service holds the tables now; ADR 0250).
 */
export function phoneTables(url = new URL('./tables-worker.js', import.meta.url)): Promise<PhoneTables> {
  shared ??= (async () => {
    const tables = connect(url);
    void navigator.storage?.persist?.().catch(() => false);
    dropLegacy();
    return tables;
  })();
  return shared;
}

/** Removes one agent's tables from this phone (the agent was removed). */
export async function removeAgentTables(agent: string): Promise<void> {
  dropLegacy(agent);
  await (await phoneTables()).request({ kind: 'remove', agent });
}

/** Removes every agent's tables from this phone (sign-out). */
export async function removeAllTables(): Promise<void> {
  dropLegacy();
  await (await phoneTables()).request({ kind: 'removeAll' });
}

/** Removes the tables of agents no longer in the person's list (removed on another device). */
export async function keepAgentTables(agents: readonly string[]): Promise<void> {
  const tables = await phoneTables();
  const known = new Set(agents);
  for (const agent of await tables.request({ kind: 'agents' })) {
    if (!known.has(agent)) await tables.request({ kind: 'remove', agent });
  }
}
