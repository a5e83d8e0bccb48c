// Relay tables in real Chromium: an agent asks to delete a row through svc_tables, the person taps Delete on
// the card in the thread, the row is gone and the agent hears it through svc_answers.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chromium, launchChromium } from './chromium.js';
import { connectMcpAgent, type McpAgent } from './mcp-agent.js';
import { pairInApp } from './pair-in-app.js';
import { startService } from './server.js';

let service: Awaited<ReturnType<typeof startService>>;
let browser: Chromium;
let page: Page;
let agent: McpAgent;

beforeAll(async () => {
  service = await startService();
  browser = await launchChromium();
  page = await browser.context.newPage();
});
afterAll(async () => {
  await agent?.close();
  await browser?.close();
  await service?.dispose();
});

async function tables(lines: string) {
  const r = await agent.client.callTool({ name: 'svc_tables', arguments: { lines } });
  if (r.isError) throw new Error(JSON.stringify(r.content));
  return r.structuredContent as {
    results: { rows: unknown[][] }[];
    pending: { id: string; prompt: string }[];
  };
}

describe('Delete / Keep cards in the thread', () => {
  it('the person taps Delete; the row is gone; the agent hears it', async () => {
    const token = await pairInApp(page, service.url, 'tables@example.com', 'Coach');
    agent = await connectMcpAgent(service.url, token);
    await page.getByRole('link', { name: 'Open the thread' }).click();

    await tables(
      'table create Weights Day:date Weight:number:kg\nput Weights mon Day=2026-11-23 Weight=72\nput Weights tue Day=2026-11-24 Weight=71.5',
    );
    const asked = await tables('put Weights mon +delete');
    expect(asked.pending.map((p) => p.prompt)).toEqual(['Delete row mon from Weights?']);
    // Nothing is deleted on the agent's say.
    expect((await tables('query Weights')).results[0]!.rows).toHaveLength(2);

    await page.getByText('Delete row mon from Weights?').waitFor();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const [tap] = await agent.answers(undefined, 10);
    expect(tap).toMatchObject({
      kind: 'tap',
      event: { preset: 'confirm', value: true, op: 'delete', table: 'Weights', key: 'mon', deleted: true },
    });
    expect((await tables('query Weights')).results[0]!.rows).toEqual([['2026-11-24', 71.5]]);
  });

  it('Keep keeps the table', async () => {
    await tables('table drop Weights');
    await page.getByText('Delete table Weights and all its rows?').waitFor();
    await page.getByRole('button', { name: 'Keep', exact: true }).last().click();
    const [tap] = await agent.answers(undefined, 10);
    expect(tap).toMatchObject({ event: { value: false, op: 'drop', table: 'Weights', deleted: false } });
    expect((await tables('query Weights')).results[0]!.rows).toHaveLength(1);
  });

  it("the agent's settings list its tables; the person gives one to another agent", async () => {
    const coachId = decodeURIComponent(/#\/a\/([^/]+)/.exec(page.url())![1]!);
    const session = JSON.parse((await page.evaluate(() => localStorage.getItem('svc-app-session')))!) as {
      access_token: string;
    };
    const made = await fetch(`${service.url}/functions/v1/svc-app/agents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Nurse' }),
    });
    expect(made.status).toBe(201);
    await page.goto(`${service.url}/#/a/${encodeURIComponent(coachId)}/settings`);
    const item = page.locator('li[data-table="Weights"]');
    await expect.poll(() => item.textContent()).toContain('1 rows');
    expect(await item.textContent()).toMatch(/last read /);
    await page.getByRole('button', { name: 'Give Weights' }).click();
    await expect
      .poll(() => page.locator('[role=status]').textContent())
      .toContain('Weights now belongs to Nurse.');
    await expect.poll(() => page.getByText('This agent has no tables yet.').count()).toBe(1);
    // The list is live: a table the agent makes now shows up without a reload (the stream's `tables`).
    await tables('table create Live A:text');
    await page.locator('li[data-table="Live"]').waitFor();
    const gone = await agent.client.callTool({ name: 'svc_tables', arguments: { lines: 'query Weights' } });
    expect((gone.structuredContent as { results: { error?: string }[] }).results[0]!.error).toBe(
      'No table called Weights yet.',
    );
  });
});
