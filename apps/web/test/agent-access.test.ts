// The Agent access page, the connections list and the agent list in real Chromium against the real service:
// a management token made on the page (shown once, copied), used by a program, listed with its last use,
// revoked; a host's profiles and last seen; a host agent's status and commands.

import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chromium, launchChromium } from './chromium.js';
import { shoot } from './screenshot.js';
import { screenshotDir } from './screenshot-dir.js';
import { startService } from './server.js';

let service: Awaited<ReturnType<typeof startService>>;
let browser: Chromium;
let page: Page;
let token: string;

beforeAll(async () => {
  service = await startService();
  browser = await launchChromium();
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: service.url });
  page = await browser.context.newPage();
  page.on('dialog', (d) => void d.accept());
});
afterAll(async () => {
  await browser?.close();
  await service?.dispose();
});

const manage = async (bearer: string, body: Record<string, unknown>) => {
  const res = await fetch(`${service.url}/functions/v1/svc-agents`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
    body: JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers read field by field in assertions
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

describe('Agent access (real Chromium, real service)', () => {
  it('creates a named token, shows it once with Copy, and lists it as never used', async () => {
    await page.goto(service.url);
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel(/^Password/).fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.locator('.agent-list').textContent()).toContain('No agents yet');
    await page.getByRole('link', { name: 'Agent access' }).click();
    await expect.poll(() => page.locator('.token-list').textContent()).toContain('No tokens');
    await page.getByLabel('Name (what will use it)').fill('Laptop robot');
    await page.getByRole('button', { name: 'Create token' }).click();
    token = await page.locator('#new-token').inputValue();
    expect(token).toMatch(/^svc_mt_[A-Za-z0-9_-]{43}$/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.locator('.token-card').textContent()).toContain('Copied.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    await expect.poll(() => page.locator('[data-token]').textContent()).toMatch(/Laptop robot.*never used/);
    await shoot(page, page, join(screenshotDir, 'agent-access.png'));
  });

  it('a program uses the token: its agent shows in the list and the page shows the last use; the token is not shown again', async () => {
    const made = await manage(token, { action: 'create', name: 'Made by robot', pair: true });
    expect(made.status).toBe(200);
    await page.reload();
    await expect.poll(() => page.locator('[data-token]').textContent()).toMatch(/last used just now/);
    expect(await page.locator('#new-token').count()).toBe(0);
    expect(await page.content()).not.toContain(token);
    await page.goto(`${service.url}/#/`);
    await expect.poll(() => page.locator('.agent-list').textContent()).toContain('Made by robot');
  });

  it('Revoke stops the token at once and empties the list', async () => {
    await page.goto(`${service.url}/#/access`);
    await page.getByRole('button', { name: 'Revoke Laptop robot' }).click();
    await expect.poll(() => page.locator('.token-list').textContent()).toContain('No tokens');
    const after = await manage(token, { action: 'list' });
    expect([after.status, after.body.error]).toEqual([401, 'unauthorized']);
  });
});

describe('hosts in the connections list and host agents in the agent list', () => {
  it('shows a host with its profiles and last seen, the agent status and commands, and Remove revokes it', async () => {
    const session = await page.evaluate(() => JSON.parse(localStorage.getItem('svc-app-session') ?? 'null'));
    const app = session.access_token as string;
    const created = await manage(app, { action: 'create', name: 'Coder', pair: true });
    const paired = await fetch(`${service.url}/functions/v1/svc-connect`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        action: 'pair',
        code: created.body.pairing.code,
        remote_ref: 'coder',
        kind: 'hostfw',
        host_name: 'Studio Mac',
      }),
    });
    const connector = ((await paired.json()) as { connector: { id: string } }).connector;
    // A second profile of the same host, bound through the management API with no code.
    expect(
      (await manage(app, { action: 'create', connector_id: connector.id, remote_ref: 'writer' })).status,
    ).toBe(200);
    // The host's commands report (the host API's `commands` action belongs to the host API work): the
    // column it writes, set here directly.
    (service as unknown as { db: { prepare(s: string): { run(...a: unknown[]): void } } }).db
      .prepare('UPDATE agents SET commands = ?, commands_at = ? WHERE id = ?')
      .run(
        JSON.stringify([
          { name: 'plan', description: 'Make a plan' },
          { name: 'test', description: 'Run tests', args: '<file>' },
        ]),
        Date.now(),
        created.body.agent.id,
      );

    await page.goto(`${service.url}/#/connections`);
    const row = page.locator(`[data-connection="${connector.id}"]`);
    await expect.poll(() => row.textContent()).toMatch(/Studio Mac/);
    await expect
      .poll(() => row.locator('.conn-profiles').textContent())
      .toBe('Profiles: coder (Coder), writer');
    expect(await row.locator('.conn-seen').textContent()).toBe('Last seen just now');

    await page.goto(`${service.url}/#/`);
    const coder = page.locator(`[data-agent="${created.body.agent.id}"]`);
    await expect.poll(() => coder.textContent()).toContain('Connected');
    expect(await coder.locator('.agent-commands').textContent()).toBe('/plan /test');

    await page.goto(`${service.url}/#/connections`);
    await page.getByRole('button', { name: 'Remove Studio Mac' }).click();
    await expect.poll(() => page.locator(`[data-connection="${connector.id}"]`).count()).toBe(0);
    await page.goto(`${service.url}/#/`);
    await expect.poll(() => coder.textContent()).toMatch(/Connection removed/);
  });
});
