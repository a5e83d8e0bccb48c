// The person's table controls (doc3 "Table holding"): list, give (hand-over), take away, delete, release on removal.
import { ServiceError } from '@screen-service/registry/kernel';
import type { AgentRecord, RelayTableKey } from '@screen-service/registry/model';
import { type TablesContext, tablePart, UNHELD } from './tables-context.js';
import { type GiveInput, type GiveResult, type TableListItem, UNHELD_TABLE_TTL_MS } from './tables-model.js';

const TABLE_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** The person's controls over the shared context. */
export function createTableControls(ctx: TablesContext) {
  const { store, relay, engine, limits, now, changed } = ctx;

  async function ownAgent(userId: string, id: unknown, field: string): Promise<AgentRecord> {
    const agent = typeof id === 'string' ? await store.agents.get(id) : null;
    if (!agent || agent.userId !== userId) {
      throw new ServiceError('AGENT_NOT_FOUND', `No agent ${String(id)} in this account.`, { field });
    }
    return agent;
  }

  async function findTable(userId: string, input: { table: unknown; from: unknown }): Promise<RelayTableKey> {
    if (typeof input.table !== 'string' || input.table === '') {
      throw new ServiceError('INVALID_INPUT', 'table is required: the table name as listed.', {
        field: 'table',
      });
    }
    if (typeof input.from !== 'string' || input.from === '') {
      throw new ServiceError('INVALID_INPUT', 'from is required: the holder as listed (an agent id).', {
        field: 'from',
      });
    }
    const key = { userId, holder: input.from, name: input.table };
    if (!(await engine.getTable({ owner: userId, holder: key.holder, name: key.name }))) {
      throw new ServiceError('TABLE_NOT_FOUND', `No table ${input.table} held by ${input.from}.`, {
        field: 'table',
      });
    }
    return key;
  }

  /** The holder of a table kept after its agent: `unheld:<agent id>:<handle>`. */
  const unheldOf = (agentId: string, handle: string | undefined) => `${UNHELD}${agentId}:${handle ?? 'kept'}`;

  async function list(userId: string): Promise<TableListItem[]> {
    await ctx.sweep();
    const agents = new Map((await store.agents.listByUser(userId)).map((a) => [a.id, a]));
    const meta = new Map((await relay.listMeta(userId)).map((m) => [`${m.holder}\u0000${m.name}`, m]));
    const iso = (ms: number | null | undefined) =>
      ms === null || ms === undefined ? null : new Date(ms).toISOString();
    return (await engine.listTables(userId)).map((t) => {
      const m = meta.get(`${t.holder}\u0000${t.name}`);
      const a = agents.get(t.holder);
      return {
        name: t.name,
        rows: t.rowCount,
        cols: t.cols.map((c) => c.name),
        agent: a ? { id: a.id, handle: a.handle, name: a.name } : null,
        holder: t.holder,
        last_read_at: iso(m?.lastReadAt),
        expires_at: m?.unheldAt == null ? null : iso(m.unheldAt + UNHELD_TABLE_TTL_MS),
      };
    });
  }

  /** The name the table takes at its new holder: the asked one, its own, or `<name>-<giver>` on a clash. */
  async function nameAtTarget(from: RelayTableKey, to: AgentRecord, asked: unknown, held: Set<string>) {
    if (asked !== undefined && asked !== null && asked !== '') {
      if (typeof asked !== 'string' || !TABLE_NAME.test(asked) || asked.length > limits.tableName) {
        throw new ServiceError(
          'INVALID_INPUT',
          `name must be a letter, then letters, digits, _ or -, up to ${limits.tableName} characters.`,
          { field: 'name' },
        );
      }
      if (held.has(asked)) {
        throw new ServiceError(
          'TABLE_NAME_TAKEN',
          `${to.handle} already has a table called ${asked}; pick another name.`,
          { field: 'name' },
        );
      }
      return { name: asked, renamed: asked !== from.name };
    }
    if (!held.has(from.name)) return { name: from.name, renamed: false };
    const giver = from.holder.startsWith(UNHELD)
      ? (from.holder.split(':')[2] ?? 'kept')
      : ((await store.agents.get(from.holder))?.handle ?? 'kept');
    const name = `${from.name}-${giver}`;
    if (held.has(name) || name.length > limits.tableName) {
      throw new ServiceError(
        'TABLE_NAME_TAKEN',
        `${to.handle} already has a table called ${from.name}; give it with a new name (name).`,
        { field: 'name' },
      );
    }
    return { name, renamed: true };
  }

  async function give(userId: string, input: GiveInput): Promise<GiveResult> {
    const from = await findTable(userId, input);
    const to = await ownAgent(userId, input.to, 'to');
    if (to.id === from.holder) {
      throw new ServiceError('INVALID_INPUT', `${to.handle} already holds ${from.name}.`, { field: 'to' });
    }
    const held = await engine.listTables(userId, to.id);
    if (held.length >= limits.tablesPerAgent) {
      throw new ServiceError(
        'LIMIT_EXCEEDED',
        `${to.handle} holds ${held.length} tables, the most one agent may hold (${limits.tablesPerAgent}); delete or give one of its tables first.`,
        { field: 'to' },
      );
    }
    const { name, renamed } = await nameAtTarget(from, to, input.name, new Set(held.map((t) => t.name)));
    if (!(await relay.move(from, { holder: to.id, name }, null))) {
      throw new ServiceError('TABLE_NAME_TAKEN', `${to.handle} already has a table called ${name}.`, {
        field: 'name',
      });
    }
    const info = (await engine.getTable({ owner: userId, holder: to.id, name }))!;
    // Several hand-overs before the agent's next turn make one line: `[svc] tables A(...) B(...)`.
    await relay.addHandover(to.id, userId, tablePart(info));
    changed(userId);
    return { table: name, agent: { id: to.id, handle: to.handle, name: to.name }, renamed };
  }

  async function takeAway(userId: string, input: { table: unknown; from: unknown }): Promise<void> {
    const from = await findTable(userId, input);
    if (from.holder.startsWith(UNHELD)) return;
    const agent = await store.agents.get(from.holder);
    if (!(await relay.move(from, { holder: unheldOf(from.holder, agent?.handle), name: from.name }, now()))) {
      throw new ServiceError(
        'TABLE_NAME_TAKEN',
        `A kept table called ${from.name} is already waiting; delete it or give it first.`,
        { field: 'table' },
      );
    }
    changed(userId);
  }

  async function remove(userId: string, input: { table: unknown; from: unknown }): Promise<void> {
    await relay.drop(await findTable(userId, input));
    changed(userId);
  }

  async function releaseAgent(userId: string, agentId: string, keep: boolean): Promise<void> {
    const agent = await store.agents.get(agentId);
    for (const p of await engine.listPending(userId, agentId)) await engine.takePending(userId, p.id);
    for (const t of await engine.listTables(userId, agentId)) {
      const key = { userId, holder: agentId, name: t.name };
      if (keep) await relay.move(key, { holder: unheldOf(agentId, agent?.handle), name: t.name }, now());
      else await relay.drop(key);
    }
    changed(userId);
  }

  return { list, give, takeAway, remove, releaseAgent };
}
