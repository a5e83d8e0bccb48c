// The person's time zone (ADR 0253) in Chromium against the real service: the app reports the device's
// zone to the account, Settings › Account pins another, and the phone's own tables then write `today` and
// `now` in the account's zone, not the device's.
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, launchBrowser } from './chromium.js';
import { connectMcpAgent, type McpAgent } from './mcp-agent.js';
import { startService } from './server.js';

// 23:30 on 23 November in New York; 13:30 on the 24th in Tokyo.
const NEW_YORK_EVENING = new Date('2026-11-24T04:30:00Z');

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
  await page.clock.setFixedTime(NEW_YORK_EVENING);
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
  it("is reported by the device, pinned in settings, and the phone's tables write today and now in it", async () => {
    await page.goto(service.url);
    await page.getByLabel('Email').fill('zone@example.com');
    await page.getByLabel(/^Password/).fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await poll(() => page.locator('.agent-list').textContent()).toContain('No agents yet');

    await page.goto(`${service.url}/#/account`);
    await poll(() => page.locator('#time-zone-now').textContent()).toContain('America/New_York');
    expect(await page.getByLabel('Dates in your tables').inputValue()).toBe('');

    agent = await addAgent('Coach');
    await agent.show('table create Runs Day:date At:date\nput Runs a Day=today At=now\nquery Runs');
    await poll(lastTable).toContain('2026-11-23');

    await page.goto(`${service.url}/#/account`);
    await page.getByLabel('Dates in your tables').selectOption('Asia/Tokyo');
    await poll(() => page.locator('#time-zone-now').textContent()).toContain(
      'Asia/Tokyo, wherever your devices are',
    );
    // A reload reports New York again: the pinned zone stays.
    await page.reload();
    await poll(() => page.locator('#time-zone-now').textContent()).toContain('Asia/Tokyo');

    await page.goto(`${service.url}/#/`);
    await page.locator('.agent-list a').first().click();
    await agent.show('put Runs b Day=today At=now\nquery Runs');
    await poll(lastTable).toContain('2026-11-24');
    expect(await lastTable()).toMatch(/2026-11-23[\s\S]*2026-11-24/);

    await page.goto(`${service.url}/#/account`);
    await page.getByLabel('Dates in your tables').selectOption('');
    await poll(() => page.locator('#time-zone-now').textContent()).toContain(
      'America/New_York, the zone your devices last reported',
    );
  });
});
