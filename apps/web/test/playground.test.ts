// The playground in real Chromium: lines draw live, errors show inline, taps are logged, tables persist.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chromium, launchChromium } from './chromium.js';
import { meanLuminance, shoot } from './screenshot.js';
import { screenshotDir } from './screenshot-dir.js';
import { serveStatic } from './static-server.js';

const shots = screenshotDir;
let browser: Chromium;
let server: Awaited<ReturnType<typeof serveStatic>>;
let page: Page;

beforeAll(async () => {
  server = await serveStatic();
  browser = await launchChromium({ viewport: { width: 1200, height: 900 } });
  page = await browser.context.newPage();
  await page.goto(`${server.url}playground.html`);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('playground', () => {
  it('draws the example screen live, with query views from the browser tables', async () => {
    await expect.poll(() => page.locator('.svc-stat-value').first().textContent()).toBe('72.1 kg');
    expect(await page.locator('.svc-chart-svg').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Soup' }).isVisible()).toBe(true);
    expect(await page.locator('.svc-pill').textContent()).toContain('Stretch');
    expect(await page.locator('math').count()).toBe(1);
  });

  it('shows parser errors inline next to the lines and keeps drawing what parses', async () => {
    const editor = page.getByRole('textbox', { name: 'Screen Lines' });
    await editor.fill('choose "Lunch?" Soup\ncheckin maybe "How?"\ntext still drawn');
    await expect.poll(() => page.locator('.pg-errors li').count()).toBe(2);
    const messages = await page.locator('.pg-errors li').allTextContents();
    expect(messages[0]).toMatch(/^line 1: choose needs at least two options/);
    expect(messages[1]).toMatch(/^line 2: /);
    expect(await editor.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('.pg-stage .svc-text').textContent()).toBe('still drawn');
  });

  it('a tap is logged as the line the agent hears; quiet ticks are marked', async () => {
    await page
      .getByRole('textbox', { name: 'Screen Lines' })
      .fill('choose@lunch "Lunch?" Soup|Salad\nchecklist Keys|Phone');
    await page.getByRole('button', { name: 'Salad' }).click();
    await page.getByLabel('Keys').check();
    const log = await page.locator('.pg-taps > li > code').allTextContents();
    expect(log).toHaveLength(2);
    expect(log[0]).toMatch(/^\[svc\] n2 checklist /);
    expect(log[1]).toBe('[svc] lunch choose choice=Salad');
    expect(await page.locator('.pg-taps > li.pg-quiet').count()).toBe(1);
  });

  it('kept table lines survive a reload (localStorage); the preview writes only a scratch copy', async () => {
    await page
      .getByRole('textbox', { name: 'Screen Lines' })
      .fill('table create runs Day:text Km:number\nput runs Day=Mon Km=3\nquery runs as stat');
    await expect.poll(() => page.locator('.svc-stat-value').textContent()).toBe('3');
    expect(await page.locator('.pg-tables').textContent()).toContain('No tables kept yet.');
    await page.getByRole('button', { name: 'Keep 2 table lines' }).click();
    await page.reload();
    await expect.poll(() => page.locator('.pg-tables').textContent()).toContain('runs · 1 row');
    await page.getByRole('textbox', { name: 'Screen Lines' }).fill('query runs as table');
    await expect.poll(() => page.locator('.svc-table tbody td').first().textContent()).toBe('Mon');
  });

  it('screenshots in light and dark, and dark is darker', async () => {
    mkdirSync(shots, { recursive: true });
    await page.getByRole('button', { name: 'Clear tables' }).click();
    await page.evaluate(() => localStorage.removeItem('svc-playground-lines'));
    await page.reload();
    await expect.poll(() => page.locator('.svc-stat-value').first().textContent()).toBe('72.1 kg');
    const luminance: Record<string, number> = {};
    for (const scheme of ['light', 'dark'] as const) {
      await page.getByLabel('Scheme').selectOption(scheme);
      const png = await shoot(page, page, join(shots, `playground-${scheme}.png`), { fullPage: true });
      luminance[scheme] = meanLuminance(png);
    }
    expect(luminance.dark).toBeLessThan(luminance.light! - 0.2);
    await page.getByLabel('Scheme').selectOption('auto');
  });
});
