// The person's time zone (ADR 0253) in Chromium against the real service: the app reports the device's
// zone to the account, Settings › Account pins another, and the agent's tables (written on the service,
// ADR 0250) then resolve `today` and `now` in the account's zone, not the device's nor the server's.
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, launchBrowser } from './chromium.js';
import { connectMcpAgent, type McpAgent } from './mcp-agent.js';
import { startService } from './server.js';

// Two zones 25 hours apart: at any moment their dates differ, so a row's date names the zone it used.
const WEST = 'Pacific/Pago_Pago';
const EAST = 'Pacific/Kiritimati';
/** The date in `zone` now, as a date column shows it; both sides of a midnight are accepted by `dayOf`. */
const dayIn = (zone: string) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());

let service: Awaited<ReturnType<typeof startService>>;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let agent: McpAgent;

beforeAll(async () => {
  service = await startService();
  browser = await launchBrowser();
  context = await browser.newContext({
    timezoneId: 'America/New_York',
    viewport: { width: 420, height: 860 },
  });
  context.setDefaultTimeout(5_000);
  page = await context.newPage();
});

afterAll(async () => {
  await agent?.close().catch(() => {});
  await browser?.close();
  await service?.dispose();
});

function poll<T>(fn: () => T | Promise<T>) {
  return expect.poll(fn, { timeout: 15_000 });
}

async function addAgent(name: string): Promise<McpAgent> {
  await page.goto(`${service.url}/#/add`);
  await page.getByLabel(/Name it after/).fill(name);
  await page.getByRole('button', { name: 'Get a pairing code' }).click();
  const code = await page.locator('output.code').getAttribute('data-code');
  const res = await fetch(`${service.url}/functions/v1/svc-connect`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ action: 'pair', code, remote_ref: name, kind: 'mcp', host_name: 'Test laptop' }),
  });
  const token = ((await res.json()) as { connector_token: string }).connector_token;
  const mcp = await connectMcpAgent(service.url, token);
  await page.getByRole('link', { name: 'Open the thread' }).click();
  await poll(() => page.locator('.thread-head').textContent()).toContain(name);
  return mcp;
}

const lastTable = () => page.locator('.svc-screen').last().locator('.svc-table tbody').textContent();

describe("the person's time zone", () => {
  it("is reported by the device, pinned in settings, and the agent's tables write today and now in it", async () => {
    await page.goto(service.url);
    await page.getByLabel('Email').fill('zone@example.com');
    await page.getByLabel(/^Password/).fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await poll(() => page.locator('.agent-list').textContent()).toContain('No agents yet');

    await page.goto(`${service.url}/#/account`);
    await poll(() => page.locator('#time-zone-now').textContent()).toContain('America/New_York');
    expect(await page.getByLabel('Dates in your tables').inputValue()).toBe('');

    // Pinned far west: the service writes the row with that zone's date.
    await page.getByLabel('Dates in your tables').selectOption(WEST);
    await poll(() => page.locator('#time-zone-now').textContent()).toContain(
      `${WEST}, wherever your devices are`,
    );
    agent = await addAgent('Coach');
    const westBefore = dayIn(WEST);
    await agent.show('table create Runs Day:date At:date\nput Runs a Day=today At=now\nquery Runs');
    await poll(lastTable).toMatch(/\d{4}-\d{2}-\d{2}/);
    expect([westBefore, dayIn(WEST)]).toContain((await lastTable())!.slice(0, 10));

    // A reload reports New York again: the pinned zone stays.
    await page.goto(`${service.url}/#/account`);
    await page.reload();
    await poll(() => page.locator('#time-zone-now').textContent()).toContain(WEST);
    // Pinned far east: the next row takes that zone's date, a day or two after the first.
    await page.getByLabel('Dates in your tables').selectOption(EAST);
    await poll(() => page.locator('#time-zone-now').textContent()).toContain(
      `${EAST}, wherever your devices are`,
    );
    await page.goto(`${service.url}/#/`);
    await page.locator('.agent-list a').first().click();
    const eastBefore = dayIn(EAST);
    await agent.show('put Runs b Day=today At=now\nquery Runs');
    await poll(
      async () => (await lastTable())?.match(/\d{4}-\d{2}-\d{2}/g)?.length ?? 0,
    ).toBeGreaterThanOrEqual(4);
    const days = (await lastTable())!.match(/\d{4}-\d{2}-\d{2}/g)!;
    // Rows a and b, each with its Day and its At: the west day twice, then the east day twice.
    expect([westBefore, dayIn(WEST)]).toContain(days[0]);
    expect([eastBefore, dayIn(EAST)]).toContain(days[2]);
    expect(days[2]! > days[0]!).toBe(true);

    await page.goto(`${service.url}/#/account`);
    await page.getByLabel('Dates in your tables').selectOption('');
    await poll(() => page.locator('#time-zone-now').textContent()).toContain(
      'America/New_York, the zone your devices last reported',
    );
  });
});
