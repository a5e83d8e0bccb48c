// Issue 37 through the host API (ADR 0250): a host framework writes with the tables call and answers with
// screens through the message transport; its table lines write the same tables, on both of the person's devices.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService } from './server.js';
import { bars, screenOf, type TwoDevices, tableRows, twoDevices } from './two-devices.js';

let service: Awaited<ReturnType<typeof startService>>;
let d: TwoDevices;
let onPhone: Page;
let onLaptop: Page;
let replies = 0;

function poll<T>(fn: () => T | Promise<T>, timeout = 15_000) {
  return expect.poll(fn, { timeout });
}

async function connect(path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${service.url}/functions/v1/svc-connect${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${d.token}` },
    body: JSON.stringify(body),
  });
  const out = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(out)}`);
  return out;
}

interface TablesAnswer {
  failed: { line: string; error: string }[];
  results: { rows: unknown[][]; count: number }[];
}
const tables = (lines: string) =>
  connect('/tables', { agent: d.agentId, lines }) as Promise<unknown> as Promise<TablesAnswer>;
interface Reply {
  screen_id: string;
  tables?: { wrote: number; failed: { line: string; error: string }[]; pending: { prompt: string }[] };
}
const reply = (lines: string, text: string) =>
  connect('/messages/reply', {
    agent_id: d.agentId,
    idempotency_key: `r${++replies}`,
    lines,
    text,
  }) as Promise<unknown> as Promise<Reply>;

beforeAll(async () => {
  service = await startService();
  d = await twoDevices(service.url, 'host-tables@example.com', 'Planner', 'hostfw');
  ({ onPhone, onLaptop } = d);
});

afterAll(async () => {
  await d?.close();
  await service?.dispose();
});

describe('tables through the host API', () => {
  it('the tables call, a screen put, a refusal and a delete: one set of tables on both devices', async () => {
    expect(
      (await tables('table create meals dish:text kcal:number\nput meals mon dish=Soup kcal=300')).failed,
    ).toEqual([]);
    await reply('query meals as chart bar x=dish y=kcal', 'Chart');
    const put = await reply('put meals tue dish=Pasta kcal=700\nquery meals as table', 'Table');
    expect(put.tables).toEqual({ wrote: 1, failed: [], pending: [] });
    for (const page of [onPhone, onLaptop]) {
      await poll(() => bars(page, 'Chart')).toBe(2);
      await poll(() => tableRows(page, 'Table')).toBe(2);
    }
    expect((await tables('query meals where=key=tue')).results[0]!.rows).toEqual([['Pasta', 700]]);

    const viaTables = await tables('put meals wed kcal=lots');
    const refused = await reply('put meals wed kcal=lots\ntext Wednesday?', 'Wednesday');
    expect(refused.tables?.failed).toEqual(viaTables.failed);
    await poll(() => screenOf(onLaptop, 'Wednesday').locator('.svc-tables-error').textContent()).toContain(
      'put meals wed kcal=lots',
    );

    const asked = await reply('put meals mon +delete\ntext Dropping Monday.', 'Monday');
    expect(asked.tables?.pending.map((p) => p.prompt)).toEqual(['Delete row mon from meals?']);
    expect((await tables('query meals')).results[0]!.count).toBe(2);
    await onPhone.getByText('Delete row mon from meals?').waitFor({ timeout: 15_000 });
    await onPhone.getByRole('button', { name: 'Delete', exact: true }).click();
    for (const page of [onPhone, onLaptop]) await poll(() => tableRows(page, 'Table')).toBe(1);
    expect((await tables('query meals')).results[0]!.rows).toEqual([['Pasta', 700]]);
  });
});
