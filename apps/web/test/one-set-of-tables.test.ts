// Issue 37 end to end (ADR 0250): one set of tables per agent, the same on every device of the person. Real
// Chromium with two browser contexts as the person's phone and laptop, an agent on the official MCP SDK client.
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, launchBrowser } from './chromium.js';
import { connectMcpAgent, type McpAgent } from './mcp-agent.js';
import { startService } from './server.js';

let service: Awaited<ReturnType<typeof startService>>;
let browser: Browser;
let phone: BrowserContext;
let laptop: BrowserContext;
let onPhone: Page;
let onLaptop: Page;
let agent: McpAgent;
let agentId: string;
const EMAIL = 'two-devices@example.com';
const PASSWORD = 'correct horse battery';

/** `expect.poll` with room for a loaded machine. */
function poll<T>(fn: () => T | Promise<T>, timeout = 15_000) {
  return expect.poll(fn, { timeout });
}

async function signIn(page: Page, create = false): Promise<void> {
  await page.goto(service.url);
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByRole('button', { name: create ? 'Create account' : 'Sign in' }).click();
  await page.locator('.agent-list').waitFor({ timeout: 15_000 });
}

async function openThread(page: Page): Promise<void> {
  await page.goto(`${service.url}/#/a/${agentId}`);
  await page.locator('.thread-head').getByText('Cook').waitFor({ timeout: 15_000 });
}

/** The screen whose chat line is `text` (svc_show's text), on one page. */
const screen = (page: Page, text: string) =>
  page.locator('li.msg', { has: page.locator('.screen-text', { hasText: text }) }).locator('.svc-screen');
const bars = (page: Page, text: string) => screen(page, text).locator('rect.svc-chart-bar').count();
const tableRows = (page: Page, text: string) => screen(page, text).locator('.svc-table tbody tr').count();

/** 200 messages from the person (the person's API; the tool server limits an agent's calls per second). */
async function send200Messages(): Promise<void> {
  const api = `${service.url}/functions/v1/svc-app`;
  const post = (path: string, body: unknown, token?: string) =>
    fetch(`${api}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  const session = (await (await post('/auth/signin', { email: EMAIL, password: PASSWORD })).json()) as {
    access_token: string;
  };
  for (let i = 0; i < 200; i++) {
    const res = await post(`/agents/${agentId}/messages`, { text: `note ${i}` }, session.access_token);
    if (res.status === 429) {
      await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 1)));
      i--;
    } else expect(res.status).toBe(201);
  }
}

beforeAll(async () => {
  service = await startService();
  browser = await launchBrowser();
  phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  laptop = await browser.newContext({ viewport: { width: 1000, height: 800 } });
  phone.setDefaultTimeout(5_000);
  laptop.setDefaultTimeout(5_000);
  onPhone = await phone.newPage();
  onLaptop = await laptop.newPage();
  await signIn(onPhone, true);
  await onPhone.goto(`${service.url}/#/add`);
  await onPhone.getByLabel(/Name it after/).fill('Cook');
  await onPhone.getByRole('button', { name: 'Get a pairing code' }).click();
  const code = await onPhone.locator('output.code').getAttribute('data-code');
  const res = await fetch(`${service.url}/functions/v1/svc-connect`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ action: 'pair', code, remote_ref: 'cook', kind: 'mcp', host_name: 'Laptop' }),
  });
  agent = await connectMcpAgent(
    service.url,
    ((await res.json()) as { connector_token: string }).connector_token,
  );
  await onPhone.getByRole('link', { name: 'Open the thread' }).click();
  await onPhone.locator('.thread-head').getByText('Cook').waitFor({ timeout: 15_000 });
  agentId = /#\/a\/([^/]+)/.exec(onPhone.url())![1]!;
  await signIn(onLaptop);
  await openThread(onLaptop);
});

afterAll(async () => {
  await agent?.close().catch(() => {});
  await browser?.close();
  await service?.dispose();
});

describe('one set of tables per agent, on every device of the person', () => {
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
    const tab = await laptop.newPage();
    await openThread(tab);
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

  it('+delete in a screen draws Delete / Keep and only the tap deletes, on both devices', async () => {
    const shown = await agent.show('put meals mon +delete\ntext Dropping Monday.', 'Monday');
    expect(shown.tables?.pending.map((p) => p.prompt)).toEqual(['Delete row mon from meals?']);
    await onPhone.getByText('Delete row mon from meals?').waitFor({ timeout: 15_000 });
    expect((await agent.tables('query meals where=key=mon')).results[0]!.count).toBe(1);
    expect(await tableRows(onLaptop, 'Table')).toBe(5);
    await onPhone.getByRole('button', { name: 'Delete', exact: true }).click();
    await poll(() => agent.tables('query meals where=key=mon').then((r) => r.results[0]!.count)).toBe(0);
    for (const page of [onPhone, onLaptop]) await poll(() => tableRows(page, 'Table')).toBe(4);
    const [tap] = await agent.answers(undefined, 10);
    expect(tap?.event).toMatchObject({ op: 'delete', table: 'meals', key: 'mon', deleted: true });
  });

  it('a device opened after 200 messages has every table, and older messages page in on scroll', async () => {
    await send200Messages();
    await agent.show('query meals as table', 'Latest');
    const tablet = await browser.newContext({ viewport: { width: 600, height: 900 } });
    const onTablet = await tablet.newPage();
    await signIn(onTablet);
    await openThread(onTablet);
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
