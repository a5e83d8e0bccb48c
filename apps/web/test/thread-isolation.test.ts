// One bad message cannot hide the thread (issue 22 item 1): each message is drawn on its own, and a far
// `today+N` is refused at svc_show with the line named, so it never reaches the phone.
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

describe('a thread with one message that cannot be drawn', () => {
  it('refuses a far today offset at svc_show, naming the line', async () => {
    const token = await pairInApp(page, service.url, 'isolation@example.com', 'Coach');
    agent = await connectMcpAgent(service.url, token);
    await expect(agent.show('table create T When:date\nput T k When=today+99999999')).rejects.toThrow(
      /line 2: today\+99999999 is out of range/,
    );
  });

  it('draws the other messages and a note in place of the broken one, across reloads', async () => {
    await agent.say('before the screen');
    const { screen_id } = await agent.show('text A screen');
    await agent.say('after the screen');
    // A stored screen the current renderer cannot draw (as a line stored by an older version could be).
    const { db } = service as unknown as { db: { prepare(sql: string): { run(...a: unknown[]): unknown } } };
    db.prepare('UPDATE screens SET ops = ? WHERE id = ?').run('[null]', screen_id);
    await page.getByRole('link', { name: 'Open the thread' }).click();
    for (let round = 0; round < 2; round++) {
      await page.getByText('after the screen').waitFor();
      await expect(page.getByText('before the screen').isVisible()).resolves.toBe(true);
      await expect(page.getByText('This message could not be shown.').count()).resolves.toBe(1);
      await page.reload();
    }
  });
});
