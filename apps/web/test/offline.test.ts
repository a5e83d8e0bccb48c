// The phone offline (issue 45, ADRs 0276 to 0278), in real Chromium against the real service: a thread read
// from the device with its photo and chart; a tap, a reply and a photo made offline survive a reload and a
// browser restart and reach the agent once each, in order; a dropped response makes no duplicate; a queued tap
// on a screen that expired meanwhile says "Not delivered" and why; sign-out leaves nothing behind.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpAgent } from './mcp-agent.js';
import { dropFirstPostAnswer } from './network-gate.js';
import { type OfflinePhone, picture, signUpAndPair, startOfflinePhone } from './offline-phone.js';
import { shoot } from './screenshot.js';
import { screenshotDir } from './screenshot-dir.js';
import { bars, screenOf } from './two-devices.js';

let skew = 0;
let phone: OfflinePhone;
let page: Page;
let agent: McpAgent;
let threadUrl: string;

const network = (on: boolean) => phone.network(on);
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });
const pending = () => page.locator('.pending-list li');
const offlineNote = () => page.locator('.offline-note');

async function open(): Promise<void> {
  page = await phone.browser.context.newPage();
  page.on('dialog', (d) => void d.accept());
}

beforeAll(async () => {
  // The service's links (photos) name the gate: the phone reaches everything through it.
  phone = await startOfflinePhone('offline-profile', { now: () => Date.now() + skew });
  await open();
});
afterAll(async () => {
  await agent?.close();
  await phone?.close();
});

describe('the phone offline', () => {
  it('reads a thread with its photo and chart from the device, and says it is offline', async () => {
    ({ agent, threadUrl } = await signUpAndPair(phone, page, {
      email: 'offline@example.com',
      agentName: 'Cook',
    }));
    await agent.tables(
      'table create meals dish:text kcal:number\nput meals mon dish=Soup kcal=300\nput meals tue dish=Pasta kcal=700',
    );
    await agent.show('query meals as chart bar x=dish y=kcal', 'Chart');
    await agent.show('choose@lunch "Lunch?" Soup|Salad', 'Lunch');
    await page
      .locator('#attach')
      .setInputFiles({ name: 'plant.png', mimeType: 'image/png', buffer: picture() });
    await page.getByLabel('Message', { exact: true }).fill('My plant');
    await page.getByRole('button', { name: 'Send' }).click();
    expect((await agent.answers()).map((a) => a.text)).toEqual(['My plant']);
    // The service worker controls the page from its next load on: that load's reads are kept on the device.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await page.reload();
    const photo = page.locator('img.photo');
    await poll(() => photo.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(96);
    await poll(() => bars(page, 'Chart')).toBe(2);

    await network(false);
    await page.reload();
    await poll(() => offlineNote().textContent()).toMatch(/^Offline · last synced (just now|\d+ min ago)$/);
    await poll(() => screenOf(page, 'Lunch').getByRole('button', { name: 'Salad' }).count()).toBe(1);
    await poll(() => bars(page, 'Chart')).toBe(2);
    await poll(() => photo.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(96);
    await expect(page.locator('.thread').first().textContent()).resolves.toContain('My plant');
    await shoot(page, page, join(screenshotDir, 'offline-thread.png'));
  });

  it('keeps a tap, a reply and a photo made offline across a reload and a restart; each reaches the agent once, in order', async () => {
    await screenOf(page, 'Lunch').getByRole('button', { name: 'Salad' }).click();
    await poll(() => pending().count()).toBe(1);
    await page.getByLabel('Message', { exact: true }).fill('Running late');
    await page.getByLabel('Message', { exact: true }).press('Enter');
    await poll(() => pending().count()).toBe(2);
    await page
      .locator('#attach')
      .setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: picture() });
    await page.getByLabel('Message', { exact: true }).fill('Receipt');
    await page.getByRole('button', { name: 'Send' }).click();
    await poll(() => pending().count()).toBe(3);
    const notes = await pending().locator('.pending-note').allTextContents();
    for (const n of notes) expect(n).toMatch(/^Not sent yet · \d{1,2}:\d{2}/);
    expect(await pending().locator('.bubble').allTextContents()).toEqual([
      '✓ Salad',
      'Running late',
      'Receipt',
    ]);
    await shoot(page, page, join(screenshotDir, 'offline-not-sent-yet.png'));
    // Nothing reached the service.
    expect(await agent.answers(undefined, 0)).toEqual([]);

    await page.reload();
    await poll(() => pending().count()).toBe(3);
    await phone.restartBrowser();
    await network(false);
    await open();
    await page.goto(threadUrl);
    await poll(() => pending().count()).toBe(3);
    await poll(() => offlineNote().isVisible()).toBe(true);

    await network(true);
    await poll(() => pending().count()).toBe(0);
    const got = await agent.answers();
    expect(
      got.map((a) => [a.kind, a.kind === 'tap' ? a.event?.value : a.text, a.photos?.length ?? 0]),
    ).toEqual([
      ['tap', 'Salad', 0],
      ['text', 'Running late', 0],
      ['text', 'Receipt', 1],
    ]);
    // And never again: a second read of the thread's answers finds nothing new.
    expect(await agent.answers(undefined, 1)).toEqual([]);
    await poll(() => offlineNote().isVisible()).toBe(false);
  });

  it('a reply whose response was lost on the way back is resent with its key and written once', async () => {
    // The request reaches the service and is written; its answer never comes back to the phone. (A route
    // of Playwright does not see requests a service worker passed on; the DevTools protocol's Fetch does.)
    const lose = await dropFirstPostAnswer(phone.browser.context, page, '*/svc-app/agents/*/messages');
    await page.getByLabel('Message', { exact: true }).fill('Lost on the way back');
    await page.getByLabel('Message', { exact: true }).press('Enter');
    await poll(() => lose.dropped()).toBe(1);
    // Resent at once, by the next start, or by Background Sync (whichever comes first): the key keeps one.
    await page.reload();
    await poll(() => pending().count()).toBe(0);
    await poll(() => page.locator('.thread').first().textContent()).toContain('Lost on the way back');
    const got = await agent.answers();
    expect(got.map((a) => a.text)).toEqual(['Lost on the way back']);
    expect(await agent.answers(undefined, 1)).toEqual([]);
    await lose.stop();
  });

  it('a queued tap on a screen that expired meanwhile says it was not delivered, and why', async () => {
    const shown = await agent.client.callTool({
      name: 'svc_show',
      arguments: { lines: 'choose@drink "Drink?" Tea|Coffee', text: 'Drink', deadline: { in: '1m' } },
    });
    expect(shown.isError).toBeFalsy();
    await poll(() => screenOf(page, 'Drink').getByRole('button', { name: 'Tea' }).count()).toBe(1);
    await network(false);
    await screenOf(page, 'Drink').getByRole('button', { name: 'Tea' }).click();
    await poll(() => pending().count()).toBe(1);
    // Two minutes pass on the service's clock before the phone is back.
    skew += 2 * 60_000;
    await network(true);
    await poll(() => page.locator('.pending-list .refused .pending-note').textContent()).toMatch(
      /^Not delivered: This screen expired at .* takes no more answers, so this tap was not recorded\./,
    );
    // The agent hears the deadline's own outcome at most, never the late tap.
    const heard = await agent.answers(undefined, 1);
    expect(heard.filter((a) => a.event?.value === 'Tea')).toEqual([]);
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await poll(() => pending().count()).toBe(0);
  });

  it('sign-out removes the kept answers, the kept token and every kept read and photo', async () => {
    await network(false);
    await page.getByLabel('Message', { exact: true }).fill('Never sent');
    await page.getByLabel('Message', { exact: true }).press('Enter');
    await poll(() => pending().count()).toBe(1);
    const kept = () =>
      page.evaluate(async () => ({
        dbs: (await indexedDB.databases()).map((d) => d.name),
        caches: await caches.keys(),
      }));
    const before = await kept();
    expect(before.dbs).toContain('svc-offline');
    // The person's own cache: the prefix and a hash of the user id (ADR 0278, amended).
    expect(before.caches.filter((k) => /^svc-device-v1-[0-9a-f]{32}$/.test(k))).toHaveLength(1);
    // Signed out while still offline: nothing the phone kept may wait for the network to go.
    await page.goto(`${phone.url}/#/`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Email').waitFor();
    const after = await kept();
    expect(after.dbs).not.toContain('svc-offline');
    expect(after.caches.filter((k) => k.startsWith('svc-device-v1'))).toEqual([]);
  });

  it('a second person signing in after a session that ended without sign-out sees nothing of the first, and sends none of their answers', async () => {
    await network(true);
    await page.getByLabel('Email').fill('offline@example.com');
    await page.getByLabel(/^Password/).fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: '+ Add an agent' }).waitFor();
    await page.goto(threadUrl);
    await poll(() => page.locator('.thread').first().textContent()).toContain('My plant');
    await network(false);
    await page.getByLabel('Message', { exact: true }).fill('From the first person');
    await page.getByLabel('Message', { exact: true }).press('Enter');
    await poll(() => pending().count()).toBe(1);
    // The session ends without a sign-out: the refresh was refused, the app dropped the session; the device
    // still keeps the first person's reads, their answer not sent yet and their token.
    await page.evaluate(() => localStorage.removeItem('svc-app-session'));
    // Every answer the page sends from here on, with whose token.
    const cdp = await phone.browser.context.newCDPSession(page);
    const senders: string[] = [];
    cdp.on(
      'Fetch.requestPaused',
      (e: { requestId: string; request: { method: string; headers: Record<string, string> } }) => {
        const auth = e.request.headers.Authorization ?? e.request.headers.authorization ?? '';
        if (e.request.method === 'POST') senders.push(auth);
        void cdp.send('Fetch.continueRequest', { requestId: e.requestId }).catch(() => undefined);
      },
    );
    await cdp.send('Fetch.enable', {
      patterns: ['*/svc-app/agents/*/messages', '*/svc-app/agents/*/taps', '*/svc-app/agents/*/photos'].map(
        (urlPattern) => ({ urlPattern, requestStage: 'Request' as const }),
      ),
    });
    await network(true);
    await page.goto(`${phone.url}/#/`);
    await page.getByLabel('Email').fill('second@example.com');
    await page.getByLabel(/^Password/).fill('another horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('link', { name: '+ Add an agent' }).waitFor();
    // Nothing of the first person's is left on the device: no kept read of their thread, no waiting answer.
    const firstAgent = decodeURIComponent(/#\/a\/([^?/]+)/.exec(threadUrl)![1]!);
    const left = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) {
        if (!name.startsWith('svc-device-v1')) continue;
        for (const r of await (await caches.open(name)).keys()) urls.push(r.url);
      }
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open('svc-offline');
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const waiting = db.objectStoreNames.contains('outbox')
        ? await new Promise<number>((resolve) => {
            const count = db.transaction('outbox').objectStore('outbox').count();
            count.onsuccess = () => resolve(count.result);
          })
        : 0;
      db.close();
      return { urls, waiting };
    });
    expect(left.urls.filter((u) => u.includes(firstAgent))).toEqual([]);
    expect(left.waiting).toBe(0);
    // Offline, the second person opening the first one's thread gets no kept copy of it.
    await network(false);
    await page.goto(threadUrl);
    await poll(() => page.locator('.thread').first().textContent()).toMatch(/Failed to fetch|My plant/);
    expect(await page.locator('.thread').first().textContent()).not.toContain('My plant');
    expect(await pending().count()).toBe(0);
    await network(true);
    await page.goto(`${phone.url}/#/`);
    await page.getByRole('link', { name: '+ Add an agent' }).waitFor();
    // Whatever was sent, none of it went with the second person's token.
    const second = await page.evaluate(
      () =>
        (JSON.parse(localStorage.getItem('svc-app-session') ?? '{}') as { user?: { id?: string } }).user?.id,
    );
    expect(second).toMatch(/\S/);
    const subjects = senders.map(
      (h) =>
        (JSON.parse(Buffer.from(h.split('.')[1] ?? '', 'base64url').toString() || '{}') as { sub?: string })
          .sub,
    );
    expect(subjects).not.toContain(second);
    expect(await pending().count()).toBe(0);
    await cdp.send('Fetch.disable');
  });
});
