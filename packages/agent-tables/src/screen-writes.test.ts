import type { ConnectionPrincipal } from '@screen-service/registry/hosts';
import { createTestCore, seedConnection, seedUser, type TestCore } from '@screen-service/test-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LinesCallResult } from './tables.js';

let core: TestCore;
let userId: string;
let principal: ConnectionPrincipal;

beforeEach(async () => {
  core = createTestCore({ clockStart: Date.parse('2026-11-23T10:00:00Z') });
  userId = (await seedUser(core.store)).id;
  const c = await seedConnection(core.store, userId, ['coach']);
  principal = { userId, connectorId: c.connector.id, connectorKind: 'mcp', via: 'connector_token' };
});
afterEach(() => core.close());

const read = async (lines: string) => (await core.tables.call(principal, { lines })) as LinesCallResult;

describe("a screen's table lines write the agent's one set of tables (ADR 0250)", () => {
  it('svc_show writes what svc_tables reads, and svc_tables writes what a screen query shows', async () => {
    const shown = await core.threadOps.show(principal, {
      lines:
        'table create meals dish:text kcal:number\nput meals mon dish=Soup kcal=300\nquery meals as table',
    });
    expect(shown.tables).toEqual({ wrote: 2, failed: [], pending: [] });
    expect((await read('query meals')).results[0]).toMatchObject({ rows: [['Soup', 300]], count: 1 });
    await read('put meals tue dish=Pasta kcal=700');
    const replica = await core.tables.replica(userId, shown.agent.id, {});
    expect(replica.tables.map((t) => [t.name, t.rows])).toEqual([
      [
        'meals',
        [
          ['mon', 'Soup', 300],
          ['tue', 'Pasta', 700],
        ],
      ],
    ]);
  });

  it('a refused line is in the answer with the same reason svc_tables gives, and kept with the screen', async () => {
    await read('table create meals dish:text kcal:number');
    const viaTables = await read('put meals x kcal=lots');
    const shown = await core.threadOps.show(principal, { lines: 'put meals x kcal=lots\ntext Saved?' });
    expect(shown.tables?.failed).toEqual(viaTables.failed);
    expect(shown.tables?.failed[0]).toMatchObject({ line: 'put meals x kcal=lots', table: 'meals' });
    const message = await core.store.threads.getMessage(shown.message_id);
    expect(message?.meta.tables_refused).toEqual([
      { line: 'put meals x kcal=lots', error: viaTables.failed[0]!.error },
    ]);
  });

  it('over 50 writes in one screen is refused whole: nothing shown, nothing written', async () => {
    await read('table create big n:number');
    const puts = Array.from({ length: 51 }, (_, i) => `put big n=${i}`).join('\n');
    await expect(core.threadOps.show(principal, { lines: `${puts}\ntext hi` })).rejects.toMatchObject({
      code: 'LIMIT_EXCEEDED',
    });
    expect((await read('query big')).results[0]?.count).toBe(0);
    expect(await core.inspect.count('messages')).toBe(0);
  });

  it('+delete and table drop in a screen wait for the Delete / Keep tap, drawn after the screen', async () => {
    await read('table create meals dish:text\nput meals mon dish=Soup\nput meals tue dish=Pasta');
    const shown = await core.threadOps.show(principal, {
      lines: 'put meals mon +delete\ntable drop meals\ntext Cleaning up',
    });
    expect(shown.tables?.pending.map((p) => p.prompt)).toEqual([
      'Delete row mon from meals?',
      'Delete table meals and all its rows?',
    ]);
    expect((await read('query meals')).results[0]?.count).toBe(2);
    const page = await core.store.threads.page({ agentId: shown.agent.id, userId, limit: 10 });
    const cards = [...page].reverse().filter((m) => m.meta.tables_pending !== undefined);
    expect(cards.map((m) => m.seq > (page.find((x) => x.id === shown.message_id)?.seq ?? 0))).toEqual([
      true,
      true,
    ]);
    const rowCard = (await core.store.threads.getScreen(cards[0]!.screenId!))!;
    await core.threads.tap(userId, shown.agent.id, {
      screen_id: rowCard.id,
      event: { id: rowCard.taps[0]!.id, value: true },
    });
    expect((await read('query meals')).results[0]?.rows).toEqual([['Pasta']]);
  });
});
