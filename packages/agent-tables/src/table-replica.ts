// A device's copy of an agent's tables (ADR 0250): each table's digest, and its rows when the device's copy is stale.
import { createHash } from 'node:crypto';
import { threadAccess } from '@screen-service/registry/agents';
import { ServiceError } from '@screen-service/registry/kernel';
import type { TablesContext } from './tables-context.js';
import type { ReplicaAnswer, ReplicaRequest, ReplicaTable } from './tables-model.js';

/** At most this many names in `have` or `only` (the per-agent table limit, with room to shrink it later). */
const MAX_NAMES = 100;

function digestsOf(have: unknown): Map<string, string> {
  if (have === undefined || have === null) return new Map();
  if (typeof have !== 'object' || Array.isArray(have)) {
    throw new ServiceError('INVALID_INPUT', 'have must be an object of table name to digest.', {
      field: 'have',
    });
  }
  const entries = Object.entries(have as Record<string, unknown>);
  if (entries.length > MAX_NAMES || entries.some(([, v]) => typeof v !== 'string')) {
    throw new ServiceError(
      'INVALID_INPUT',
      `have must map at most ${MAX_NAMES} table names to the digests this device was given.`,
      { field: 'have' },
    );
  }
  return new Map(entries as [string, string][]);
}

function namesOf(only: unknown): Set<string> | null {
  if (only === undefined || only === null) return null;
  if (!Array.isArray(only) || only.length > MAX_NAMES || only.some((n) => typeof n !== 'string')) {
    throw new ServiceError('INVALID_INPUT', `only must be a list of at most ${MAX_NAMES} table names.`, {
      field: 'only',
    });
  }
  return new Set(only as string[]);
}

/** The device-copy side of the relay tables over the shared context. */
export function createTableReplica(ctx: TablesContext) {
  const { store, engine } = ctx;

  async function replica(userId: string, agentId: string, input: ReplicaRequest): Promise<ReplicaAnswer> {
    const have = digestsOf(input.have);
    const only = namesOf(input.only);
    // The owner's, or a grant holder's (an agent nobody gave this person reads as missing).
    const { grant } = await threadAccess(store, userId, agentId);
    // A thread shared with this person never shows the owner's tables (doc3): its copy is empty.
    if (grant) return { complete: true, tables: [] };
    const tables: ReplicaTable[] = [];
    for (const info of await engine.listTables(userId, agentId)) {
      if (only && !only.has(info.name)) continue;
      const dump = await engine.exportTable({ owner: userId, holder: agentId, name: info.name });
      if (!dump) continue;
      const rows = dump.rows.map((r) => [r.key, ...dump.cols.map((c) => r.values[c.name] ?? null)]);
      const digest = createHash('sha1')
        .update(JSON.stringify([dump.cols, rows]))
        .digest('base64url')
        .slice(0, 22);
      tables.push({
        name: info.name,
        digest,
        cols: dump.cols,
        ...(have.get(info.name) === digest ? {} : { rows }),
      });
    }
    return { complete: only === null, tables };
  }

  return { replica };
}
