// Issue 37 end to end (ADR 0250): one set of tables per agent, the same on every device of the person. Real
// Chromium with two browser contexts as the person's phone and laptop, an agent on the official MCP SDK client.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcpAgent, type McpAgent } from './mcp-agent.js';
import { startService } from './server.js';
import {
  bars,
  screenOf as screen,
  sendMessages,
  type TwoDevices,
  tableRows,
  twoDevices,
} from './two-devices.js';

/** `expect.poll` with room for a loaded machine. */
function poll<T>(fn: () => T | Promise<T>, timeout = 15_000) {
  return expect.poll(fn, { timeout });
}

let service: Awaited<ReturnType<typeof startService>>;
let d: TwoDevices;
let onPhone: Page;
let onLaptop: Page;
let agent: McpAgent;
const EMAIL = 'two-devices@example.com';

beforeAll(async () => {
  service = await startService();
  d = await twoDevices(service.url, EMAIL, 'Cook', 'mcp');
  ({ onPhone, onLaptop } = d);
  agent = await connectMcpAgent(service.url, d.token);
});

afterAll(async () => {
  await agent?.close().catch(() => {});
  await d?.close();
  await service?.dispose();
});

/** The indented example blocks (after `Example:`) of a text that write or query tables. */
function tableExamples(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/Example:\n\n((?: {4}.*\n?)+)/g)) {
    const block = m[1]!
      .split('\n')
      .map((l) => l.slice(4))
      .filter((l) => l.trim() !== '')
      .join('\n');
    if (/^(query|put|table) /m.test(block)) out.push(block);
  }
  return out;
}

describe('one set of tables per agent, on every device of the person', () => {
  it('every table example in the tool texts and svc_guide draws on the phone', async () => {
    const { tools } = await agent.client.listTools();
    const prompt = await agent.client.getPrompt({ name: 'svc_guide' });
    const texts = [
      ...tools.map((t) => t.description ?? ''),
      ...prompt.messages.map((m) => (m.content.type === 'text' ? m.content.text : '')),
    ];
    const examples = [...new Set(texts.flatMap(tableExamples))];
    expect(examples.length).toBeGreaterThan(0);
    // Each example as one screen, and as the svc_tables text invites: its writes through svc_tables, its
    // queries in a screen (the example that drew "No table called ..." in issue 37).
    const runs = examples.flatMap((example, i) => {
      const lines = example.split('\n');
      const queries = lines.filter((l) => l.startsWith('query ')).join('\n');
      const writes = lines.filter((l) => !l.startsWith('query ')).join('\n');
      return [
        { title: `Example ${i} on screen`, writes: '', screen: example },
        { title: `Example ${i} via svc_tables`, writes, screen: queries },
      ];
    });
    for (const run of runs) {
      if (run.writes) expect((await agent.tables(run.writes)).failed).toEqual([]);
      const shown = await agent.show(run.screen, run.title);
      expect(shown.tables?.failed ?? []).toEqual([]);
      const views = screen(onPhone, run.title).locator('[data-table]');
      await poll(() => views.count()).toBeGreaterThan(0);
      // Drawn: no reason in place of any view (not "No table called ...", not still loading).
      await poll(() => views.locator('.svc-note').count()).toBe(0);
      await poll(() => views.locator('svg, table, .svc-stat').count()).toBeGreaterThan(0);
    }
  });

  it('svc_tables writes; a query as chart and as table draws the rows on both devices', async () => {
    const made = await agent.tables(
      'table create meals dish:text kcal:number\nput meals mon dish=Soup kcal=300\nput meals tue dish=Pasta kcal=700\nput meals wed dish=Salad kcal=250',
    );
    expect(made.failed).toEqual([]);
    await agent.show('query meals as chart bar x=dish y=kcal "Meals this week"', 'Chart');
    await agent.show('query meals as table', 'Table');
    for (const page of [onPhone, onLaptop]) {
      await poll(() => bars(page, 'Chart')).toBe(3);
      await poll(() => tableRows(page, 'Table')).toBe(3);
      // The view keeps its title (issue 37: titles were dropped with the rows).
      await poll(() => screen(page, 'Chart').textContent()).toContain('Meals this week');
    }
  });

  it('a second tab of the app on the laptop draws every view too', async () => {
    const tab = await d.laptop.newPage();
    await d.openThread(tab);
    await poll(() => bars(tab, 'Chart')).toBe(3);
    await poll(() => tableRows(tab, 'Table')).toBe(3);
    expect(await tab.locator('.svc-tables-error').count()).toBe(0);
    // A write while both tabs are open redraws both.
    await agent.tables('put meals thu dish=Curry kcal=800');
    await poll(() => tableRows(tab, 'Table')).toBe(4);
    await poll(() => tableRows(onLaptop, 'Table')).toBe(4);
    await tab.close();
  });

  it("a screen's put is read back by svc_tables and redraws the views on both devices", async () => {
    const shown = await agent.show('put meals fri dish=Fish kcal=450\ntext Logged Friday.', 'Friday');
    expect(shown.tables).toEqual({ wrote: 1, failed: [], pending: [] });
    const read = await agent.tables('query meals where=key=fri');
    expect(read.results[0]!.rows).toEqual([['Fish', 450]]);
    for (const page of [onPhone, onLaptop]) await poll(() => tableRows(page, 'Table')).toBe(5);
  });

  it("a refused put reaches the agent's result with svc_tables' reason, and the person sees the line", async () => {
    const viaTables = await agent.tables('put meals sat kcal=lots');
    const shown = await agent.show('put meals sat kcal=lots\ntext Saturday?', 'Saturday');
    expect(shown.tables?.failed).toEqual(viaTables.failed);
    expect(shown.text).toContain(`- put meals sat kcal=lots: ${viaTables.failed[0]!.error}`);
    expect(shown.text).not.toMatch(/lines? saved/);
    await poll(() => screen(onPhone, 'Saturday').locator('.svc-tables-error').textContent()).toContain(
      'put meals sat kcal=lots',
    );
    expect((await agent.tables('query meals where=key=sat')).results[0]!.count).toBe(0);
  });

  it("the agent's settings list each table once, with its row count, Delete and a copy line", async () => {
    await onLaptop.goto(`${service.url}/#/a/${d.agentId}/settings`);
    // The examples' `weights` and `meals`, each once.
    const items = onLaptop.locator('li[data-table]');
    const names = () => items.evaluateAll((li) => li.map((x) => x.getAttribute('data-table')).sort());
    await poll(names).toEqual(['meals', 'weights']);
    await poll(() => onLaptop.locator('li[data-table="meals"]').textContent()).toContain('5 rows');
    expect(await onLaptop.getByRole('button', { name: 'Delete meals' }).count()).toBe(1);
    await poll(() => onLaptop.locator('.tables-usage').textContent()).toMatch(
      /^Copy on this device .*: 2 tables, /,
    );
    await d.openThread(onLaptop);
  });

  it('+delete in a screen draws Delete / Keep and only the tap deletes, on both devices', async () => {
    const shown = await agent.show('put meals mon +delete\ntext Dropping Monday.', 'Monday');
    expect(shown.tables?.pending.map((p) => p.prompt)).toEqual(['Delete row mon from meals?']);
    await onPhone.getByText('Delete row mon from meals?').waitFor({ timeout: 15_000 });
    expect((await agent.tables('query meals where=key=mon')).results[0]!.count).toBe(1);
    await poll(() => tableRows(onLaptop, 'Table')).toBe(5);
    await onPhone.getByRole('button', { name: 'Delete', exact: true }).click();
    await poll(() => agent.tables('query meals where=key=mon').then((r) => r.results[0]!.count)).toBe(0);
    for (const page of [onPhone, onLaptop]) await poll(() => tableRows(page, 'Table')).toBe(4);
    const [tap] = await agent.answers(undefined, 10);
    expect(tap?.event).toMatchObject({ op: 'delete', table: 'meals', key: 'mon', deleted: true });
  });

  it('table drop in a screen waits for the tap; then the table is gone on both devices', async () => {
    const shown = await agent.show('table drop weights\ntext Dropping weights.', 'Drop weights');
    expect(shown.tables?.pending.map((p) => p.prompt)).toEqual(['Delete table weights and all its rows?']);
    const card = onPhone.locator('li.msg', { hasText: 'Delete table weights and all its rows?' });
    await card.waitFor({ timeout: 15_000 });
    expect((await agent.tables('query weights')).results[0]!.error).toBeUndefined();
    await card.getByRole('button', { name: 'Delete', exact: true }).click();
    await poll(() => agent.tables('query weights').then((r) => r.results[0]!.error)).toBe(
      'No table called weights yet.',
    );
    for (const page of [onPhone, onLaptop]) {
      await poll(() => screen(page, 'Example 0 on screen').textContent()).toContain(
        'No table called weights yet.',
      );
    }
  });

  it('a device opened after 200 messages has every table, and older messages page in on scroll', async () => {
    await sendMessages(service.url, EMAIL, d.agentId, 200);
    await agent.show('query meals as table', 'Latest');
    const tablet = await d.browser.newContext({ viewport: { width: 600, height: 900 } });
    const onTablet = await tablet.newPage();
    await d.signIn(onTablet);
    await d.openThread(onTablet);
    await poll(() => tableRows(onTablet, 'Latest')).toBe(4);
    // The first screens were written more than 200 messages ago: scrolling up brings them in, drawn.
    const log = onTablet.locator('ol.thread');
    await poll(async () => {
      await log.evaluate((el) => {
        el.scrollTop = 0;
        el.dispatchEvent(new Event('scroll'));
      });
      return bars(onTablet, 'Chart');
    }, 30_000).toBe(4);
    expect(await onTablet.locator('li.msg', { hasText: 'note 0' }).count()).toBe(1);
    await tablet.close();
  });
});
