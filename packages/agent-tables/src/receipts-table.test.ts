import type { ConnectionPrincipal } from '@screen-service/registry/hosts';
import { createTestCore, seedConnection, seedUser, type TestCore } from '@screen-service/test-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LinesCallResult } from './tables.js';

const LUNCH = 'choose@lunch "Lunch?" Soup|Salad';
let core: TestCore;
let userId: string;
let agentId: string;
let principal: ConnectionPrincipal;

beforeEach(async () => {
  core = createTestCore({ clockStart: Date.parse('2026-11-23T10:00:00Z') });
  userId = (await seedUser(core.store)).id;
  const c = await seedConnection(core.store, userId, ['cook']);
  agentId = c.agents[0]!.id;
  principal = { userId, connectorId: c.connector.id, connectorKind: 'mcp', via: 'connector_token' };
});
afterEach(() => core.close());

const lines = async (text: string, p = principal) =>
  (await core.tables.call(p, { lines: text })) as LinesCallResult;

/** One screen the person taps (Salad), one decided by its deadline's default (Soup). */
async function twoAnswers() {
  const tapped = await core.threadOps.show(principal, { lines: LUNCH });
  await core.threads.tap(userId, agentId, {
    screen_id: tapped.screen_id,
    event: { id: 'lunch', value: 'Salad' },
  });
  const waited = await core.threadOps.show(principal, {
    lines: LUNCH,
    deadline: { in: '10m', default: { lunch: 'Soup' } },
  });
  core.advance(600_000);
  expect(await core.deadlines.sweep()).toHaveLength(1);
  return { tapped: tapped.screen_id, waited: waited.screen_id };
}

describe('the read-only receipts table (ADR 0273)', () => {
  it('query receipts where=decided_by=default gives exactly the answer the default decided', async () => {
    const { tapped, waited } = await twoAnswers();
    const all = await lines('query receipts cols=seq|decided_by|how|step|screen_id sort=seq');
    expect(all.failed).toEqual([]);
    expect(all.results[0]).toMatchObject({
      table: 'receipts',
      cols: ['seq', 'decided_by', 'how', 'step', 'screen_id'],
      rows: [
        [1, 'person', 'tap', null, tapped],
        [2, 'default', 'default', 'deadline', waited],
      ],
      count: 2,
    });
    const byDefault = await lines('query receipts where=decided_by=default');
    expect(byDefault.results[0]!.count).toBe(1);
    const row = Object.fromEntries(
      byDefault.results[0]!.cols.map((c, i) => [c, byDefault.results[0]!.rows[0]![i]]),
    );
    const stored = (await core.store.receipts.listByThread({ agentId, userId }, 0, 10))[1]!;
    expect(row).toEqual({
      seq: 2,
      at: '2026-11-23T10:10:00.000Z',
      decided_by: 'default',
      how: 'default',
      step: 'deadline',
      screen_id: waited,
      message_id: stored.messageId,
      kid: stored.kid,
      hash: stored.hash,
    });
  });

  it("a bare query in a reply is drawn in place; another account's agent and another agent see none", async () => {
    await twoAnswers();
    const reply = await core.tables.call(principal, {
      reply: 'Who chose?\nquery receipts where=decided_by=person cols=decided_by',
    });
    expect(reply).toEqual({
      text: 'Who chose?\n| decided_by |\n| --- |\n| person |',
      events: [],
      pending: [],
    });

    const other = (await seedUser(core.store)).id;
    const c = await seedConnection(core.store, other, ['cook']);
    const theirs = {
      userId: other,
      connectorId: c.connector.id,
      connectorKind: 'mcp' as const,
      via: 'connector_token' as const,
    };
    const seen = await lines('query receipts', theirs);
    expect(seen.results[0]).toMatchObject({ table: 'receipts', rows: [], count: 0 });

    const second = await seedConnection(core.store, userId, ['nurse']);
    const nurse = { ...principal, connectorId: second.connector.id };
    expect((await lines('query receipts', nurse)).results[0]).toMatchObject({ count: 0 });
  });

  it('writes to receipts are refused saying why and what to do; the other lines of the call still run', async () => {
    await twoAnswers();
    const answer = await lines(
      'table create Notes X:text\nput receipts r1 decided_by=person\ntable drop receipts\ntable create receipts X:text\nquery receipts where=decided_by=default',
    );
    expect(answer.ok.map((o) => o.table)).toEqual(['Notes']);
    expect(answer.failed.map((f) => [f.table, f.code, f.line])).toEqual([
      ['receipts', 'INVALID_LINE', 'put receipts r1 decided_by=person'],
      ['receipts', 'INVALID_LINE', 'table drop receipts'],
      ['receipts', 'INVALID_LINE', 'table create receipts X:text'],
    ]);
    expect(answer.failed[0]!.error).toMatch(/read-only: the service keeps it.*query receipts/);
    expect(answer.results[0]).toMatchObject({ count: 1 });
    expect(await core.store.relay.tables.listTables(userId)).toHaveLength(1);
    expect((await core.store.receipts.listByThread({ agentId, userId }, 0, 10)).length).toBe(2);
  });

  it("an agent's own older table named receipts: the reserved name wins for reads, the table stays untouched", async () => {
    await twoAnswers();
    const own = { owner: userId, holder: agentId, name: 'receipts' };
    await core.store.relay.tables.defineTable(own, [{ name: 'X', type: 'text' }]);
    await core.store.relay.tables.insertRow(own, 'k', { X: 'mine' });
    const answer = await lines('query receipts where=decided_by=default\nput receipts k X=changed');
    expect(answer.results[0]).toMatchObject({ table: 'receipts', count: 1 });
    expect(answer.results[0]!.cols[0]).toBe('seq');
    expect(answer.failed.map((f) => f.code)).toEqual(['INVALID_LINE']);
    expect((await core.store.relay.tables.getRow(own, 'k'))?.values).toEqual({ X: 'mine' });
  });
});
