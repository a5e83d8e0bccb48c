// The relay's two sides as it writes to them, and the responses it awaits to requests of its own.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** A JSON-RPC message as the relay reads it (it passes every other field on untouched). */
export type Msg = Record<string, unknown> & {
  id?: string | number;
  method?: string;
  params?: Record<string, unknown>;
};

/** A JSON-RPC request id. */
export type Id = string | number;

/** Both sides, and the relay's own requests to either one (their ids carry a prefix no peer mints). */
export interface Wire {
  toServer(m: Msg): Promise<void>;
  toClient(m: Msg): Promise<void>;
  /** Responses the relay awaits, by the id of its own request. */
  readonly awaiting: Map<Id, (m: Msg) => void>;
  /** A fresh id for a request of the relay's own. */
  nextId(): string;
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The wire over two transports; a send that fails is logged (the side is gone, and its close ends the relay). */
export function createWire(client: Transport, server: Transport, log: (line: string) => void): Wire {
  let seq = 0;
  const send = (t: Transport, m: Msg) =>
    t
      .send(m as JSONRPCMessage)
      .catch((err: Error) => log(`could not send ${m.method ?? 'a response'}: ${err.message}`));
  return {
    toServer: (m) => send(server, m),
    toClient: (m) => send(client, m),
    awaiting: new Map(),
    nextId: () => `svc-relay-${++seq}`,
  };
}

/** Sends a request of the relay's own to the server; resolves with its response. */
export function requestServer(wire: Wire, m: Msg): Promise<Msg> {
  return new Promise<Msg>((resolve) => {
    const id = wire.nextId();
    wire.awaiting.set(id, resolve);
    void wire.toServer({ ...m, id });
  });
}
