// Pairing (doc1 "Pairing with a code", doc2 host API `pair`): mint 6-digit codes, claim them from a host.
import { type AgentView, toAgentView } from './agent-status.js';
import { newId as defaultNewId, digestsEqual, hashSecret, mintPairingCode, mintToken } from './crypto.js';
import { ServiceError } from './errors.js';
import type { ConnectorKind, ConnectorRecord } from './records.js';
import type { Store } from './repositories.js';
import * as check from './validate.js';

export const PAIRING_CODE_TTL_MS = 10 * 60 * 1000;
/** Wrong codes allowed per client address within the window before `TOO_MANY_ATTEMPTS`. */
export const PAIR_MAX_FAILURES = 10;
export const PAIR_FAILURE_WINDOW_MS = 10 * 60 * 1000;

export interface PairingOptions {
  store: Store;
  now?: () => number;
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
  const now = options.now ?? Date.now;
  const newId = options.newId ?? defaultNewId;
  const wrongCode = () =>
    new ServiceError(
      'INVALID_OR_EXPIRED_CODE',
      'That code is unknown, used or expired: mint a new one in the app.',
    );

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
        const code = mintPairingCode();
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
      const failures = await store.pairing.countFailures(input.clientAddr, at - PAIR_FAILURE_WINDOW_MS);
      if (failures >= PAIR_MAX_FAILURES) {
        throw new ServiceError(
          'TOO_MANY_ATTEMPTS',
          'Too many wrong codes from this address; wait 10 minutes.',
        );
      }
      if (typeof input.code !== 'string' || !/^\d{6}$/.test(input.code.replace(/\s/g, ''))) {
        throw new ServiceError('INVALID_INPUT', 'code must be the 6 digits shown in the app.', {
          field: 'code',
        });
      }
      const code = input.code.replace(/\s/g, '');
      const ref = check.remoteRef(input.remote_ref);
      const kind = check.connectorKind(input.kind);
      const reuse = input.connectorToken ?? null;
      const name = reuse ? undefined : check.hostName(input.host_name);

      const row = await store.pairing.findUnused(hashSecret(code));
      if (!row || row.expiresAt <= at) {
        await store.pairing.recordFailure(input.clientAddr, at, at - PAIR_FAILURE_WINDOW_MS);
        throw wrongCode();
      }
      let connector: ConnectorRecord;
      let token: string | null = null;
      if (reuse) {
        connector = await reusedConnector(reuse, row.userId, kind);
      } else {
        token = mintToken('svc_ct_');
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
      if (!done) throw wrongCode();
      if (reuse) await store.connectors.touch(connector.id, at);
      const agent = await store.agents.get(row.agentId);
      const fresh = await store.connectors.get(connector.id);
      return {
        connector: { id: connector.id, name: connector.name, kind: connector.kind },
        connector_token: token,
        agent: toAgentView(agent!, fresh, at),
      };
    },
  };
}
