// Live agent status in real Chromium against the real service: a host that stops heartbeating shows
// Offline after 2 minutes (movable clock) and Connected again on its next heartbeat, on the open page,
// without a reload; a profile the host adds appears by itself, named after the profile.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chromium, launchChromium } from './chromium.js';
import { startService } from './server.js';

let skew = 0;
let service: Awaited<ReturnType<typeof startService>>;
let browser: Chromium;
let page: Page;

beforeAll(async () => {
  service = await startService({}, { now: () => Date.now() + skew, statusTickMs: 100 });
  browser = await launchChromium();
  page = await browser.context.newPage();
});
afterAll(async () => {
  await browser?.close();
  await service?.dispose();
});

async function post(path: string, body: unknown, token?: string) {
  const res = await fetch(`${service.url}/functions/v1/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field
  return (await res.json()) as Record<string, any>;
}

const statusOf = (name: string) =>
  page.locator('.agent-row', { hasText: name }).locator('.status').textContent({ timeout: 2000 });

describe('agent status on the open app page', () => {
  it('goes Offline after 2 silent minutes, back to Connected on a heartbeat, Offline when revoked', async () => {
    await page.goto(service.url);
    await page.getByLabel('Email').fill('status@example.com');
    await page.getByLabel(/^Password/).fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.locator('.agent-list').textContent()).toContain('No agents yet');
    const access = await page.evaluate(
      () =>
        (JSON.parse(localStorage.getItem('svc-app-session') ?? '{}') as { access_token: string })
          .access_token,
    );
    const created = await post('svc-app/agents', { name: 'Desk' }, access);
    const paired = await post('svc-connect', {
      action: 'pair',
      code: created.pairing.code,
      remote_ref: 'desk',
      kind: 'hostfw',
      host_name: 'Desk computer',
    });
    const host = paired.connector_token as string;
    await expect.poll(() => statusOf('Desk')).toBe('Connected');
    // Proof the page is never reloaded: this mark would be gone.
    await page.evaluate(() => {
      (window as unknown as { mark: number }).mark = 1;
    });

    skew += 2 * 60_000 + 1000;
    await expect.poll(() => statusOf('Desk')).toBe('Offline');

    await post('svc-connect', { action: 'heartbeat' }, host);
    await expect.poll(() => statusOf('Desk')).toBe('Connected');

    // A profile the host adds shows up by itself, named after the profile.
    await post('svc-connect', { action: 'add', remote_ref: 'research' }, host);
    await expect.poll(() => statusOf('research')).toBe('Connected');

    await fetch(`${service.url}/functions/v1/svc-app/connections/${paired.connector.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${access}` },
    });
    // A removed host reads Offline (or, where the app names it, "Connection removed").
    await expect.poll(() => statusOf('Desk')).toMatch(/^(Offline|Connection removed)/);
    await expect.poll(() => statusOf('research')).toMatch(/^(Offline|Connection removed)/);
    expect(await page.evaluate(() => (window as unknown as { mark?: number }).mark)).toBe(1);
  });

  it('shows a working row while a host works on a turn; its answer clears it', async () => {
    const access = await page.evaluate(
      () =>
        (JSON.parse(localStorage.getItem('svc-app-session') ?? '{}') as { access_token: string })
          .access_token,
    );
    const created = await post('svc-app/agents', { name: 'Worker' }, access);
    const paired = await post('svc-connect', {
      action: 'pair',
      code: created.pairing.code,
      remote_ref: 'worker',
      kind: 'hostfw',
      host_name: 'Worker box',
    });
    const host = paired.connector_token as string;
    await page.goto(`${service.url}/#/a/${created.agent.id}`);
    await expect.poll(() => page.locator('.thread-head').textContent()).toContain('Worker');
    await page.locator('#composer').fill('please think');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.locator('.thread').textContent()).toContain('please think');
    const rows = await fetch(`${service.url}/functions/v1/svc-app/agents/${created.agent.id}/messages`, {
      headers: { authorization: `Bearer ${access}` },
    });
    const sent = ((await rows.json()) as { messages: { id: string }[] }).messages.at(-1)!;
    expect(await page.locator('.working').isHidden()).toBe(true);
    await post('svc-connect/messages/turn', { agent_id: created.agent.id, rows: [sent.id] }, host);
    await expect.poll(() => page.locator('.working').isVisible()).toBe(true);
    expect(await page.locator('.working').textContent()).toContain('Worker is working');
    await post(
      'svc-connect/messages/reply',
      { agent_id: created.agent.id, idempotency_key: 'w1', text: 'Done thinking.', turn: [sent.id] },
      host,
    );
    await expect.poll(() => page.locator('.thread').textContent()).toContain('Done thinking.');
    await expect.poll(() => page.locator('.working').isHidden()).toBe(true);
  });
});
