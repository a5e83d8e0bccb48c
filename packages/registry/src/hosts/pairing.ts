// Pairing (doc1 "Pairing with a code", doc2 host API `pair`): mint 6-digit codes, claim them from a host.
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
        const ok = await store.pairing.mint({
          id: newId('pc_'),
          userId,
          agentId,
          codeHash: hashSecret(code),
          createdAt: at,
          expiresAt,
          usedAt: null,
          connectorId: null,
        });
        if (ok) return { code, expires_at: new Date(expiresAt).toISOString() };
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
    const done = await store.pairing.complete({
      codeId: row.id,
      at,
      agentId: row.agentId,
      remoteRef: ref,
      kind,
      connectorId: connector.id,
      ...(token ? { newConnector: connector } : {}),
    });
    if (!done) return null;
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
