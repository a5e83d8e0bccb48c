import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ConnectionPrincipal } from '@screen-service/registry/hosts';
import { createTestCore, seedConnection, seedUser, type TestCore } from '@screen-service/test-kit';
import { afterEach, describe, expect, it } from 'vitest';

let core: TestCore;
afterEach(() => core.close());

async function person(agents: string[]) {
  const userId = (await seedUser(core.store)).id;
  const c = await seedConnection(core.store, userId, agents);
  const principal: ConnectionPrincipal = {
    userId,
    connectorId: c.connector.id,
    connectorKind: 'mcp',
    via: 'connector_token',
  };
  return (agent: string, lines: string) =>
    core.tables.call(principal, { agent, lines }) as Promise<{
      results: { error?: string; rows: unknown[][] }[];
    }>;
}

async function fill(call: Awaited<ReturnType<typeof person>>, agent: string, rows: number) {
  await call(agent, 'table create T N:number S:text');
  for (let i = 0; i < rows; i += 50) {
    const puts = Array.from(
      { length: Math.min(50, rows - i) },
      (_, j) => `put T k${i + j} N=${i + j} S=s${j % 7}`,
    );
    const errors = (await call(agent, puts.join('\n'))).results.flatMap((r) => (r.error ? [r.error] : []));
    expect(errors).toEqual([]);
  }
}

describe("one account's table work (ADR 0254)", () => {
  it("queries draw on the account's rows-scanned budget across its agents; other accounts are untouched", async () => {
    // The per-call time cap is not what this case is about: a loaded machine could cut a fill's last put.
    core = createTestCore({ tableWork: { rowsPerMinute: 1_000, maxCallMs: 60_000 } });
    const mine = await person(['coach', 'nurse']);
    await fill(mine, 'coach', 400);
    await fill(mine, 'nurse', 400);
    const codes = async (agent: string, lines: string) =>
      (await mine(agent, lines)).results.map((r) => r.error ?? 'ran');
    expect(await codes('coach', 'query T +count\nquery T +count')).toEqual(['ran', 'ran']);
    // 800 of 1,000 rows used: the other agent's query over 400 rows is refused, with the reason.
    const refused = (await mine('nurse', 'query T +count')).results[0]!;
    expect(refused.rows).toEqual([]);
    expect(refused.error).toMatch(
      /scanned their 1,000 rows for this minute \(this one would scan 400\); try again in \d+ s/,
    );
    const other = await person(['coach']);
    await fill(other, 'coach', 400);
    expect((await other('coach', 'query T +count')).results[0]!.rows).toEqual([[400]]);
    core.advance(60_000);
    expect(await codes('nurse', 'query T +count')).toEqual(['ran']);
    expect((await mine('nurse', 'query T +count')).results[0]!.rows).toEqual([[400]]);
  });

  it('a long call gives way to other work between its lines', async () => {
    core = createTestCore({ tableWork: { sliceMs: 0 } });
    const call = await person(['coach']);
    await fill(call, 'coach', 300);
    const seen: string[] = [];
    const heavy = call('coach', Array(30).fill('query T group=S sum=N +count').join('\n')).then(() =>
      seen.push('call'),
    );
    await Promise.all([heavy, nextTurn().then(() => seen.push('other'))]);
    expect(seen).toEqual(['other', 'call']);
  });
});
