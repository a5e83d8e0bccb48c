// The person's app in real Chromium: the code read from the add-agent screen pairs the bridge, the person
// types, the A2A agent's echo appears on the page; the settings show the card's name and skills.
import { rmSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The app's own Chromium launcher (Debian's chromium, fresh profile, removed on close).
import { type Chromium, launchChromium } from '../../../apps/web/test/chromium.js';
import { startTestServer, type TestServer } from './agents.js';
import {
  type BridgeProcess,
  bridgeCli,
  bridgeDir,
  type LiveService,
  startBridge,
  startService,
} from './live.js';

let service: LiveService;
let v10: TestServer;
let v03: TestServer;
let browser: Chromium;
let page: Page;
let bridge: BridgeProcess | undefined;
const dir = bridgeDir();

beforeAll(async () => {
  [service, v10, v03] = await Promise.all([startService(), startTestServer('v10'), startTestServer('v03')]);
  browser = await launchChromium();
  browser.context.setDefaultTimeout(10_000);
  page = await browser.context.newPage();
}, 60_000);
afterAll(async () => {
  bridge?.child.kill('SIGKILL');
  await browser?.close();
  await Promise.all([service.close(), v10.close(), v03.close()]);
  rmSync(dir, { recursive: true, force: true });
});

/** Adds an agent on the page and returns the code the add-agent screen shows. */
async function codeFromAddScreen(name: string): Promise<string> {
  await page.goto(`${service.base}/#/`);
  await page.getByRole('link', { name: '+ Add an agent' }).click();
  await page.getByLabel(/Name it after/).fill(name);
  await page.getByRole('button', { name: 'Get a pairing code' }).click();
  const code = await page.locator('output.code').getAttribute('data-code');
  expect(code).toMatch(/^\d{6}$/);
  return code!;
}

async function typeAndSee(text: string, answer: string) {
  await page.getByLabel('Message', { exact: true }).fill(text);
  await page.getByLabel('Message', { exact: true }).press('Enter');
  await expect.poll(() => page.locator('body').textContent(), { timeout: 20_000 }).toContain(answer);
}

describe('the bridge from the app', () => {
  it('pair from the add-agent screen, type, see the echo; both protocol versions; card in settings', {
    timeout: 150_000,
  }, async () => {
    await page.goto(service.base);
    await page.getByLabel('Email').fill('chromium@example.com');
    await page.getByLabel(/^Password/).fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.locator('.agent-list').textContent()).toContain('No agents yet');

    const code = await codeFromAddScreen('Echo');
    const paired = await bridgeCli(['pair', code, '--card', v10.url('stream'), '--url', service.base], dir);
    expect(paired.code, paired.stderr).toBe(0);
    bridge = startBridge(['run'], dir);
    await page.getByRole('link', { name: 'Open the thread' }).click();
    await expect.poll(() => page.locator('.thread-head').textContent()).toContain('Echo');
    await typeAndSee('hello from the phone', 'echo: hello from the phone');

    // The agent's settings show the card's own name and its skills.
    await page.getByRole('link', { name: 'Agent settings' }).click();
    await expect.poll(() => page.locator('.agent-card').textContent()).toContain('Card: v10-stream');
    expect(await page.locator('.agent-skills li').allTextContents()).toEqual([
      'Echo Says back what it hears',
    ]);

    // The native 0.3 agent, paired with a second code on the same machine's connection.
    const second = await codeFromAddScreen('Old echo');
    const paired03 = await bridgeCli(
      ['pair', second, '--card', v03.url('stream'), '--url', service.base],
      dir,
    );
    expect(paired03.code, paired03.stderr).toBe(0);
    // The running bridge picks the new agent up when its first message arrives: no restart.
    await page.getByRole('link', { name: 'Open the thread' }).click();
    await expect.poll(() => page.locator('.thread-head').textContent()).toContain('Old echo');
    await typeAndSee('hello old friend', 'echo: hello old friend');
    await page.goto(`${service.base}/#/`);
    await expect
      .poll(() => page.locator('.agent-row', { hasText: 'Old echo' }).locator('.status').textContent())
      .toBe('Connected');
    bridge.child.kill('SIGTERM');
    expect(await bridge.exit).toBe(0);
    expect(bridge.out.stdout).toMatch(/svc-a2a: stopped\./);
  });
});
