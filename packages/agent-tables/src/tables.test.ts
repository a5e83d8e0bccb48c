import type { ConnectionPrincipal } from '@screen-service/registry/hosts';
import { createTestCore, seedConnection, seedUser, type TestCore } from '@screen-service/test-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UNHELD_TABLE_TTL_MS } from './tables.js';

let core: TestCore;
let userId: string;
let principal: ConnectionPrincipal;
let agents: Record<string, string>;

beforeEach(async () => {
  core = createTestCore({ clockStart: Date.parse('2026-11-23T10:00:00Z') });
  userId = (await seedUser(core.store)).id;
  const c = await seedConnection(core.store, userId, ['coach', 'nurse']);
  principal = { userId, connectorId: c.connector.id, connectorKind: 'mcp', via: 'connector_token' };
  agents = Object.fromEntries(c.agents.map((a) => [a.handle, a.id]));
});
afterEach(() => core.close());

const lines = (agent: string, text: string) => core.tables.call(principal, { agent, lines: text });

describe('core.tables', () => {
  it('unheld tables are deleted after 30 days unless given to an agent', async () => {
    await lines('coach', 'table create A X:text\ntable create B X:text\nput A X=1');
    await core.tables.takeAway(userId, { table: 'A', from: agents.coach });
    await core.tables.takeAway(userId, { table: 'B', from: agents.coach });
    const kept = await core.tables.list(userId);
    expect(kept.map((t) => [t.name, t.agent, t.expires_at])).toEqual([
      ['A', null, '2026-12-23T10:00:00.000Z'],
      ['B', null, '2026-12-23T10:00:00.000Z'],
    ]);
    core.advance(UNHELD_TABLE_TTL_MS - 1);
    await core.tables.give(userId, { table: 'A', from: kept[0]!.holder, to: agents.nurse });
    expect(await core.tables.sweep()).toBe(0);
    core.advance(2);
    expect(await core.tables.sweep()).toBe(1);
    expect((await core.tables.list(userId)).map((t) => [t.name, t.agent?.handle])).toEqual([['A', 'nurse']]);
    // Given within the 30 days, the table stays however long after.
    core.advance(UNHELD_TABLE_TTL_MS * 2);
    expect(await core.tables.sweep()).toBe(0);
    expect(await core.inspect.count('te_rows')).toBe(1);
  });

  it("after a hand-over the new holder's next answer carries the tables line once", async () => {
    await lines('coach', 'table create Runs Km:number Day:date\nput Runs Km=5');
    await core.tables.give(userId, { table: 'Runs', from: agents.coach, to: agents.nurse });
    await lines('coach', 'table create Laps N:number');
    await core.tables.give(userId, { table: 'Laps', from: agents.coach, to: agents.nurse });
    await core.threads.say(userId, agents.nurse!, { text: 'hello' });
    await core.threads.say(userId, agents.nurse!, { text: 'again' });
    const { answers } = await core.threadOps.answers(principal, { agent: 'nurse' });
    expect(answers.map((a) => [a.text, a.tables])).toEqual([
      ['hello', '[svc] tables Runs(1 rows: Km, Day) Laps(0 rows: N)'],
      ['again', undefined],
    ]);
  });

  it('give refuses a full agent, a bad name and a table it does not own', async () => {
    const twenty = Array.from({ length: 20 }, (_, i) => `table create T${i} A:text`).join('\n');
    await lines('nurse', twenty);
    await lines('coach', 'table create Mine A:text');
    await expect(
      core.tables.give(userId, { table: 'Mine', from: agents.coach, to: agents.nurse }),
    ).rejects.toMatchObject({ code: 'LIMIT_EXCEEDED', field: 'to' });
    await expect(
      core.tables.give(userId, { table: 'T1', from: agents.nurse, to: agents.coach, name: '9bad' }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'name' });
    const stranger = await seedUser(core.store);
    await expect(
      core.tables.give(stranger.id, { table: 'Mine', from: agents.coach, to: agents.nurse }),
    ).rejects.toMatchObject({ code: 'TABLE_NOT_FOUND' });
  });

  it('removing an agent without keeping deletes its tables and its pending deletes', async () => {
    await lines('coach', 'table create A X:text\nput A k X=1\nput A k +delete');
    expect(await core.store.relay.tables.listPending(userId)).toHaveLength(1);
    await core.deleteAgent(userId, agents.coach!);
    expect(await core.tables.list(userId)).toEqual([]);
    expect(await core.store.relay.tables.listPending(userId)).toEqual([]);
  });
});

describe('the live stream hears table changes', () => {
  it('publishes tables for writes, hand-overs, take-aways and deletes, not for reads', async () => {
    const seen: string[] = [];
    const stop = core.notifier.subscribe(userId, (e) => seen.push(e.type));
    await lines('coach', 'table create A X:text\nput A X=1');
    await lines('coach', 'query A');
    expect(seen).toEqual(['tables']);
    await core.tables.give(userId, { table: 'A', from: agents.coach, to: agents.nurse });
    await core.tables.takeAway(userId, { table: 'A', from: agents.nurse });
    const kept = (await core.tables.list(userId))[0]!;
    await core.tables.remove(userId, { table: 'A', from: kept.holder });
    expect(seen).toEqual(['tables', 'tables', 'tables', 'tables']);
    stop();
  });
});
