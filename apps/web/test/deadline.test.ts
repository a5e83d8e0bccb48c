// A screen's deadline on the phone (ADR 0260): the time left under it, then "Expired: Soup was chosen by
// default" once the service's sweeper decided (the service's clock is moved; the page hears it live), and the
// screen takes no more taps. Real service, real MCP client, real Chromium.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chromium, launchChromium } from './chromium.js';
import { connectMcpAgent, type McpAgent } from './mcp-agent.js';
import { pairInApp } from './pair-in-app.js';
import { screenshotDir } from './screenshot-dir.js';
import { startService } from './server.js';

let skew = 0;
let service: Awaited<ReturnType<typeof startService>>;
let browser: Chromium;
let page: Page;
let agent: McpAgent;

beforeAll(async () => {
  service = await startService({}, { now: () => Date.now() + skew });
  browser = await launchChromium({ viewport: { width: 390, height: 844 } });
  page = await browser.context.newPage();
});
afterAll(async () => {
  await agent?.close();
  await browser?.close();
  await service?.dispose();
});

describe('a screen with a deadline on the phone', () => {
  it('counts down, then shows what was chosen by default and takes no more taps', async () => {
    const token = await pairInApp(page, service.url, 'deadline@example.com', 'Cook');
    agent = await connectMcpAgent(service.url, token);
    await page.getByRole('link', { name: 'Open the thread' }).click();

    const shown = await agent.client.callTool({
      name: 'svc_show',
      arguments: {
        lines: 'choose@lunch "Lunch?" Soup|Salad',
        deadline: { in: '10m', default: { lunch: 'Soup' } },
      },
    });
    expect(shown.isError).toBeFalsy();
    const note = page.locator('.svc-deadline');
    await expect.poll(() => note.textContent()).toMatch(/^Time left: (10:00|9:5\d)$/);
    await page.screenshot({ path: join(screenshotDir, 'deadline-time-left.png') });

    // Ten minutes pass on the service's clock: its sweeper lands the default and the page hears it live.
    skew += 10 * 60_000;
    await expect
      .poll(() => note.textContent(), { timeout: 10_000 })
      .toBe('Expired: Soup was chosen by default');
    const screen = page.locator('.svc-screen', { has: page.getByRole('button', { name: 'Salad' }) });
    expect(await screen.evaluate((e) => (e as HTMLElement).inert)).toBe(true);
    await page.screenshot({ path: join(screenshotDir, 'deadline-expired.png') });
    const { screen_id } = shown.structuredContent as { screen_id: string };
    const [decided] = await agent.answers(screen_id);
    expect(decided).toMatchObject({ kind: 'tap', event: { value: 'Soup', decided_by: 'default' } });
    // After a reload the thread still says so, from the stored rows.
    await page.reload();
    await expect
      .poll(() => page.locator('.svc-deadline').textContent())
      .toBe('Expired: Soup was chosen by default');
  });
});
