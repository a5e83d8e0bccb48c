import type { ConnectionPrincipal } from '@screen-service/registry/hosts';
import { createTestCore, seedConnection, seedUser, type TestCore } from '@screen-service/test-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// 23:30 on 23 November in New York is 04:30 on the 24th in UTC.
const NEW_YORK_EVENING = Date.parse('2026-11-24T04:30:00Z');

let core: TestCore;
let userId: string;
let principal: ConnectionPrincipal;

beforeEach(async () => {
  core = createTestCore({ clockStart: NEW_YORK_EVENING });
  userId = (await seedUser(core.store)).id;
  const c = await seedConnection(core.store, userId, ['coach']);
  principal = { userId, connectorId: c.connector.id, connectorKind: 'mcp', via: 'connector_token' };
});
afterEach(() => core.close());

const call = (text: string) => core.tables.call(principal, { agent: 'coach', lines: text });
const rowsOf = async (text: string) => ((await call(text)) as { results: { rows: unknown[][] }[] }).results;

describe("relay tables resolve dates in the person's zone (ADR 0253)", () => {
  it("an evening run logged at 23:30 in New York lands on that day, and today's query finds it", async () => {
    await core.accounts.setTimeZone(userId, { time_zone: 'America/New_York', how: 'report' });
    await call('table create Runs Day:date At:date Km:number\nput Runs Day=today At=now Km=5');
    const [today, grouped, exact] = await rowsOf(
      'query Runs where=Day=today cols=Day|At|Km\nquery Runs group=Day:day +count\nquery Runs where=Day=2026-11-23',
    );
    expect(today!.rows).toEqual([['2026-11-23', '2026-11-23T23:30', 5]]);
    expect(grouped!.rows).toEqual([['2026-11-23', 1]]);
    expect(exact!.rows).toHaveLength(1);
  });

  it('without a zone on the account the service default (UTC) is used, as before', async () => {
    await call('table create Runs Day:date\nput Runs Day=today');
    const [rows] = await rowsOf('query Runs');
    expect(rows!.rows).toEqual([['2026-11-24']]);
  });

  it("the person's pinned zone wins over a device's report", async () => {
    await core.accounts.setTimeZone(userId, { time_zone: 'Asia/Tokyo', how: 'pin' });
    await core.accounts.setTimeZone(userId, { time_zone: 'America/New_York', how: 'report' });
    expect(await core.accounts.me(userId)).toMatchObject({ time_zone: 'Asia/Tokyo', time_zone_pinned: true });
    await call('table create Runs At:date\nput Runs At=now');
    const [rows] = await rowsOf('query Runs');
    expect(rows!.rows).toEqual([['2026-11-24T13:30']]);
  });

  it('refuses a zone Intl does not know, naming the field', async () => {
    await expect(
      core.accounts.setTimeZone(userId, { time_zone: 'Mars/Olympus', how: 'report' }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'time_zone' });
    await expect(
      core.accounts.setTimeZone(userId, { time_zone: 'UTC', how: 'always' }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'how' });
  });
});
