// The phone side for real: the person signs in to the web app in Chromium and taps the option the SDK's
// choose put on the screen; the call resolves with it.
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect } from '../src/index.js';
import { pairedAgent, type Service, startService } from './service.js';

let service: Service;
let browser: Browser;

beforeAll(async () => {
  service = await startService();
  browser = await chromium.launch({
    // The global set-up found or installed it (config/chromium-setup.ts).
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
    timeout: 20_000,
  });
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

it('a tap in the web app resolves choose with the literal option', async () => {
  const paired = await pairedAgent(service.base, 'Lunch bot');
  const context = await browser.newContext({ viewport: { width: 420, height: 860 } });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  await page.goto(`${service.base}/`);
  await page.getByLabel('Email').fill(paired.email);
  await page.getByLabel(/^Password/).fill(paired.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page
    .getByRole('link', { name: /Lunch bot/ })
    .first()
    .click();
  await expect.poll(() => page.locator('.thread-head').textContent()).toContain('Lunch bot');

  const svc = connect({ url: service.mcpUrl, token: paired.token });
  const lunch = svc.choose('Lunch?', ['Soup', 'Salad', 'Pizza']);
  await page.getByRole('button', { name: 'Salad' }).click();
  expect(await lunch).toBe('Salad');
  await expect.poll(() => page.locator('.svc-choose .svc-echo').textContent()).toContain('Salad');
  await svc.close();
  await context.close();
});
