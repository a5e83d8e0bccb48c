// The person's app against the real service in real Chromium: sign up, add an agent, pair with the code on
// the page, and the screen / tap, typed reply and photo paths end to end.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chromium, launchChromium } from './chromium.js';
import { connectMcpAgent, type McpAgent } from './mcp-agent.js';
import { meanLuminance, shoot } from './screenshot.js';
import { screenshotDir } from './screenshot-dir.js';
import { startService } from './server.js';

const shots = screenshotDir;
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
let service: Awaited<ReturnType<typeof startService>>;
let browser: Chromium;
let page: Page;
let agent: McpAgent;
let token: string;

beforeAll(async () => {
  service = await startService();
  browser = await launchChromium();
  page = await browser.context.newPage();
  page.on('dialog', (d) => void d.accept());
});

afterAll(async () => {
  await agent?.close();
  await browser?.close();
  await service?.dispose();
});

const answers = (screen_id?: string) => agent.answers(screen_id);

describe('the person and an AI app, end to end', () => {
  it('a person signs up and adds an agent; the app pairs with the code shown on the page', async () => {
    await page.goto(service.url);
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel(/^Password/).fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.locator('.agent-list').textContent()).toContain('No agents yet');
    await page.getByRole('link', { name: '+ Add an agent' }).click();
    await page.getByLabel(/Name it after/).fill('Claude');
    await page.getByRole('button', { name: 'Get a pairing code' }).click();
    const code = await page.locator('output.code').getAttribute('data-code');
    expect(code).toMatch(/^\d{6}$/);
    expect(await page.locator('.code-card').textContent()).toMatch(/Works once, for (9:5\d|10:00) more/);
    const res = await fetch(`${service.url}/functions/v1/svc-connect`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        action: 'pair',
        code,
        remote_ref: 'claude-desktop',
        kind: 'mcp',
        host_name: 'Test laptop',
      }),
    });
    expect(res.status).toBe(200);
    token = ((await res.json()) as { connector_token: string }).connector_token;
    expect(token).toMatch(/^svc_ct_/);
    agent = await connectMcpAgent(service.url, token);
    await page.getByRole('link', { name: 'Open the thread' }).click();
    await expect.poll(() => page.locator('.thread-head').textContent()).toContain('Claude');
  });

  it('a choose shown by a real MCP client appears live; the tap on the page comes back as the answer', async () => {
    await page.evaluate(() => {
      const w = window as unknown as { seenAt?: number };
      new MutationObserver((_, obs) => {
        if (document.querySelector('.svc-choose')) {
          w.seenAt = Date.now();
          obs.disconnect();
        }
      }).observe(document.body, { childList: true, subtree: true });
    });
    const shown = await agent.show('choose@lunch "Lunch?" Soup|Salad|Pizza', 'Quick one');
    // It arrives live over the stream, with no reload; how many milliseconds that takes is not a
    // test's assertion (the service's wake benchmark measures the server side).
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { seenAt?: number }).seenAt ?? 0), {
        timeout: 5_000,
      })
      .toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Pizza' }).click();
    const [tap] = await answers(shown.screen_id);
    expect(tap).toMatchObject({ kind: 'tap', event: { id: 'lunch', preset: 'choose', value: 'Pizza' } });
    expect(tap!.text.split('\n')[0]).toBe('[svc] lunch choose choice=Pizza');
    await expect.poll(() => page.locator('.svc-choose .svc-echo').textContent()).toContain('Pizza');
  });

  it('a typed reply comes back as text; a photo attached in the composer comes back as a signed link', async () => {
    await page.getByLabel('Message', { exact: true }).fill('See you at noon');
    await page.getByLabel('Message', { exact: true }).press('Enter');
    const [typed] = await answers();
    expect(typed).toMatchObject({ kind: 'text', text: 'See you at noon' });
    await page.locator('#attach').setInputFiles({ name: 'plant.png', mimeType: 'image/png', buffer: PNG });
    await page.getByLabel('Message', { exact: true }).fill('my plant');
    await page.getByRole('button', { name: 'Send' }).click();
    const [photo] = await answers();
    expect(photo).toMatchObject({ kind: 'text', text: 'my plant' });
    expect(photo!.photos).toHaveLength(1);
    const image = await fetch(photo!.photos![0]!);
    expect([image.status, image.headers.get('content-type')]).toEqual([200, 'image/png']);
  });

  it('a photo screen: the person picks a photo in the screen and the answer carries its link', async () => {
    const shown = await agent.show('photo@rash "Show me the rash"');
    const input = page.locator('[data-id="rash"] input[type=file]');
    await input.waitFor({ state: 'attached' });
    await input.setInputFiles({ name: 'rash.png', mimeType: 'image/png', buffer: PNG });
    await page.locator('[data-id="rash"]').getByRole('button', { name: 'Send' }).click();
    const [tap] = await answers(shown.screen_id);
    expect(tap).toMatchObject({ kind: 'tap', event: { id: 'rash', preset: 'photo', value: 1 } });
    expect(tap!.photos).toHaveLength(1);
  });

  it('screenshots of the thread in light and dark, and dark is darker', async () => {
    await agent.say('Here is your plan for today.');
    await agent.show(
      'timer 10m Stretch\ncheckin mood "How do you feel?"\nchart bar Mon=3|Tue=5|Wed=2 "Runs this week" unit=km',
    );
    await page.locator('.svc-chart').waitFor();
    mkdirSync(shots, { recursive: true });
    const luminance: Record<string, number> = {};
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.locator('.composer').scrollIntoViewIfNeeded();
      luminance[scheme] = meanLuminance(await shoot(page, page, join(shots, `thread-${scheme}.png`)));
    }
    expect(luminance.dark).toBeLessThan(luminance.light! - 0.2);
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('the connections list removes a connection and its token stops at once', async () => {
    await page.goto(`${service.url}/#/connections`);
    await page.getByRole('button', { name: 'Remove Test laptop' }).click();
    await expect.poll(() => page.locator('.conn-list').textContent()).toContain('Nothing is connected');
    await expect(service.services.connectionAuth.verify(token)).rejects.toThrow(/removed/);
  });
});
