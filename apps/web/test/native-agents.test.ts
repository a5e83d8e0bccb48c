// Native agents in real Chromium against the real service and a scripted chat-completions server: add a
// starter in one tap, tap its first screen, the model's answer lands; edit instructions; see and delete tables.
import { type ModelServer, startModelServer } from '@screen-service/native-agents/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chromium, launchChromium } from './chromium.js';
import { startService } from './server.js';

let model: ModelServer;
let service: Awaited<ReturnType<typeof startService>>;
let browser: Chromium;
let page: Page;

beforeAll(async () => {
  model = await startModelServer();
  service = await startService({
    model: {
      url: model.url,
      key: null,
      model: 'test-model',
      limits: { turnsPerMinute: 0, tokensPerDay: 0 },
      starters: ['habit-coach', 'todo-keeper', 'study-helper'],
    },
  });
  browser = await launchChromium();
  page = await browser.context.newPage();
  page.on('dialog', (d) => void d.accept());
});

afterAll(async () => {
  await browser?.close();
  await service?.dispose();
  await model?.close();
});

describe('native agents in the app', () => {
  it('adds a starter in one tap; tapping its first screen reaches the model and the answer shows', async () => {
    await page.goto(service.url);
    await page.getByLabel('Email').fill('nat@example.com');
    await page.getByLabel(/^Password/).fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('link', { name: '+ Add an agent' }).click();
    await expect.poll(() => page.locator('[data-starter]').count()).toBe(3);
    await page.getByRole('button', { name: 'Add Habit Coach' }).click();
    await expect.poll(() => page.locator('.thread-head').textContent()).toContain('Habit Coach');
    await expect.poll(() => page.locator('main').textContent()).toContain("How did today's run feel?");
    model.script('Great run, logged it!\n```svc\nput runs Day=today Km=5 Feel=4\n```');
    await page.getByRole('button', { name: '4 of 5' }).click();
    await expect
      .poll(() => page.locator('main').textContent(), { timeout: 10_000 })
      .toContain('Great run, logged it!');
    expect(await page.locator('main').textContent()).not.toContain('put runs');
    const asked = model.requests[0]!.messages;
    expect(asked[0]!.content).toContain('running-habit coach');
    expect(asked.at(-1)!.content).toMatch(/^\[svc\] feel checkin/);
  });

  it('edits the instructions and shows the agent tables with rows and last read, then deletes one', async () => {
    const agentId = decodeURIComponent(/#\/a\/([^/]+)/.exec(page.url())![1]!);
    await page.goto(`${service.url}/#/a/${agentId}/settings`);
    const text = page.locator('#s-instructions');
    await expect.poll(() => text.inputValue()).toContain('running-habit coach');
    await text.fill('Coach me for a 10 km race.');
    await page.getByRole('button', { name: 'Save instructions' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('Instructions saved.');
    const runs = page.locator('[data-table="runs"]');
    await expect.poll(() => runs.textContent()).toContain('1 rows');
    expect(await runs.textContent()).toContain('last read');
    await page.getByRole('button', { name: 'Delete runs' }).click();
    await expect.poll(() => page.locator('[data-table="runs"]').count()).toBe(0);
    // The next turn runs on the edited instructions.
    model.script('On it.');
    await page.goto(`${service.url}/#/a/${agentId}`);
    await page.locator('.composer-text').fill('ready');
    await page.locator('.composer-text').press('Enter');
    await expect.poll(() => page.locator('main').textContent(), { timeout: 10_000 }).toContain('On it.');
    expect(model.requests.at(-1)!.messages[0]!.content).toContain('Coach me for a 10 km race.');
  });
});
