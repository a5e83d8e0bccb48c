// The claim that makes one instance of several run a native agent's turn (ADR 0227): every instance hears
// every person row, so without it each would call the model and answer. One process needs none.

/** A lease per agent that at most one holder has at a time; it lapses after `ttlMs` unless renewed. */
export interface TurnLeases {
  /** Takes (or, for the same holder, renews) the agent's turn lease for `ttlMs`; false while another holds it. */
  claim(agentId: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Gives the lease back (only the holder's own). */
  release(agentId: string, holder: string): Promise<void>;
}

/** How long a turn lease lasts unless renewed; the runtime renews it every third of this while a turn runs. */
export const TURN_LEASE_MS = 60_000;
