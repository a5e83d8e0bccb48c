// Pairing (doc1 "Pairing with a code", doc2 host API `pair`): mint 6-digit codes, claim them from a host.
// Each reads, decides and writes in one Store.transaction (ADR 0241).
import { type AgentView, toAgentView } from '../agents/agent-status.js';
import * as check from '../agents/validate.js';
import {
  newId as defaultNewId,
  digestsEqual,
  hashSecret,
  mintPairingCode,
  mintToken,
} from '../kernel/crypto.js';
import { ServiceError } from '../kernel/errors.js';
import { type Clock, type Random, systemClock, systemRandom } from '../kernel/system.js';
import type { ConnectorKind, ConnectorRecord, PairingCodeRecord } from '../model/records.js';
import type { Store } from '../model/repositories.js';
import { redeemCode } from './redeem-code.js';

export const PAIRING_CODE_TTL_MS = 10 * 60 * 1000;

/** Thrown inside a pairing's transaction when its code was claimed meanwhile: rolls the rest back. */
const CODE_TAKEN = new Error('the pairing code was claimed meanwhile');

export { PAIR_FAILURE_WINDOW_MS, PAIR_MAX_FAILURES } from './redeem-code.js';

export interface PairingOptions {
  store: Store;
  now?: Clock;
  /** Randomness for codes, tokens and ids (default: the OS CSPRNG). */
  random?: Random;
  newId?: (prefix: string) => string;
}

export interface PairInput {
  code: unknown;
  remote_ref: unknown;
  kind: unknown;
  host_name?: unknown;
  /** Who is asking (the HTTP client address), for the wrong-code throttle. */
  clientAddr: string;
  /** An existing connector token from the Authorization header: reuse that connector. */
  connectorToken?: string | null;
}

export interface PairResult {
  connector: { id: string; name: string; kind: ConnectorKind };
  /** `svc_ct_...`, shown once; null when an existing connector was reused. */
  connector_token: string | null;
  agent: AgentView;
}

export interface MintedCode {
  code: string;
  expires_at: string;
}

export interface Pairing {
  /** A fresh code for one of the user's agents; the agent's unused codes are deleted. */
  mintCode(userId: string, agentId: string): Promise<MintedCode>;
  /** Claims a code for a host profile: creates (or reuses) the connector and binds the agent. */
  pair(input: PairInput): Promise<PairResult>;
}

/**
 * @example
 * ```ts
 * const pairing = createPairing({ store });
 * const { code } = await pairing.mintCode(userId, agentId);
 * const r = await pairing.pair({ code, remote_ref: 'claude', kind: 'mcp', host_name: 'laptop', clientAddr: '127.0.0.1' });
 * r.connector_token; // 'svc_ct_...' (shown once)
 * ```
 */
export function createPairing(options: PairingOptions): Pairing {
  const { store } = options;
  const now = options.now ?? systemClock;
  const random = options.random ?? systemRandom;
  const newId = options.newId ?? ((prefix: string) => defaultNewId(prefix, random));

  async function reusedConnector(
    token: string,
    userId: string,
    kind: ConnectorKind,
  ): Promise<ConnectorRecord> {
    const hash = hashSecret(token);
    const c = await store.connectors.findByTokenHash(hash);
    if (!c || !digestsEqual(c.tokenHash, hash)) {
      throw new ServiceError(
        'UNAUTHORIZED',
        'The connector token in Authorization is not valid; pair without it.',
      );
    }
    if (c.revokedAt !== null)
      throw new ServiceError('CONNECTOR_REVOKED', 'This connector was removed in the app.');
    if (c.userId !== userId || c.kind !== kind) {
      throw new ServiceError('FORBIDDEN', 'This connector belongs to another account or host kind.');
    }
    return c;
  }

  return {
    async mintCode(userId, agentId) {
      const agent = await store.agents.get(agentId);
      if (!agent || agent.userId !== userId) {
        throw new ServiceError('AGENT_NOT_FOUND', `No agent ${agentId} in your account.`, {
          field: 'agent_id',
        });
      }
      // An unused code hash is unique across users: on the rare collision, draw again.
      for (let attempt = 0; attempt < 8; attempt++) {
        const code = mintPairingCode(random);
        const at = now();
        const expiresAt = at + PAIRING_CODE_TTL_MS;
        const row: PairingCodeRecord = {
          id: newId('pc_'),
          userId,
          agentId,
          codeHash: hashSecret(code),
          createdAt: at,
          expiresAt,
          usedAt: null,
          connectorId: null,
        };
        if (await mint(row)) return { code, expires_at: new Date(expiresAt).toISOString() };
      }
      throw new ServiceError('CONFLICT', 'Could not mint a unique code; try again.');
    },

    async pair(input) {
      const at = now();
      let ref = '';
      let kind: ConnectorKind = 'mcp';
      let name: string | undefined;
      const reuse = input.connectorToken ?? null;
      return redeemCode({
        store,
        code: input.code,
        clientAddr: input.clientAddr,
        at,
        check() {
          ref = check.remoteRef(input.remote_ref);
          kind = check.connectorKind(input.kind);
          name = reuse ? undefined : check.hostName(input.host_name);
        },
        claim: (row) => claim(row, { at, ref, kind, name, reuse }),
      });
    },
  };

  /**
   * One live code per agent: the agent's unused codes go and this one takes their place. An expired unused
   * code would otherwise hold its hash under the unique index forever: one with this hash goes too. False
   * when a live code of anyone has the hash (nothing written).
   */
  function mint(row: PairingCodeRecord): Promise<boolean> {
    return store.transaction(async (tx) => {
      await tx.pairing.deleteUnusedOf(row.agentId);
      const clash = await tx.pairing.findUnused(row.codeHash);
      if (clash && clash.expiresAt <= row.createdAt) await tx.pairing.delete(clash.id);
      return tx.pairing.insert(row);
    });
  }

  /**
   * Completes a pairing in one transaction: the profile must be free on the connection, the connection is
   * made (first pairing of a host), the code claimed (once: a racing claim finds it used and nothing of
   * this one stays) and the agent bound to the connection as the profile. Null when the code went meanwhile.
   */
  async function complete(
    row: PairingCodeRecord,
    o: { at: number; ref: string; kind: ConnectorKind; connector: ConnectorRecord; isNew: boolean },
  ): Promise<boolean> {
    try {
      return await store.transaction(async (tx) => {
        const taken = await tx.agents.findByRemoteRef(o.connector.id, o.ref);
        if (taken && taken.id !== row.agentId) {
          throw new ServiceError('PROFILE_ALREADY_ADDED', `The profile "${o.ref}" is already added.`, {
            field: 'remote_ref',
          });
        }
        if (o.isNew) await tx.connectors.create(o.connector);
        // The connection is written first (the code names it); a lost claim rolls it back with the rest.
        if (!(await tx.pairing.claim(row.id, { at: o.at, connectorId: o.connector.id }))) throw CODE_TAKEN;
        await tx.agents.bind(
          row.agentId,
          { connectorId: o.connector.id, remoteRef: o.ref, kind: o.kind },
          o.at,
        );
        return true;
      });
    } catch (err) {
      if (err === CODE_TAKEN) return false;
      throw err;
    }
  }

  async function claim(
    row: PairingCodeRecord,
    o: { at: number; ref: string; kind: ConnectorKind; name: string | undefined; reuse: string | null },
  ): Promise<PairResult | null> {
    const { at, ref, kind, name, reuse } = o;
    let connector: ConnectorRecord;
    let token: string | null = null;
    if (reuse) {
      connector = await reusedConnector(reuse, row.userId, kind);
    } else {
      token = mintToken('svc_ct_', random);
      connector = {
        id: newId('con_'),
        userId: row.userId,
        name: name!,
        kind,
        tokenHash: hashSecret(token),
        createdAt: at,
        lastSeenAt: at,
        revokedAt: null,
        suspendedAt: null,
      };
    }
    if (!(await complete(row, { at, ref, kind, connector, isNew: token !== null }))) return null;
    if (reuse) await store.connectors.touch(connector.id, at);
    const agent = await store.agents.get(row.agentId);
    const fresh = await store.connectors.get(connector.id);
    return {
      connector: { id: connector.id, name: connector.name, kind: connector.kind },
      connector_token: token,
      agent: toAgentView(agent!, fresh, at),
    };
  }
}
