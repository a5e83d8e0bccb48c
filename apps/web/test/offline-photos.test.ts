// The phone offline, continued (issue 45, ADR 0287), in real Chromium against the real service: a photo taken
// in a screen's own photo field while offline waits on the phone, survives a reload and reaches the agent once
// with its photo, stored once; a photo upload whose response was lost is stored once; a queued answer is sent
// by the service worker's Background Sync (dispatched through the DevTools protocol) with no page open.
import { join } from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpAgent } from './mcp-agent.js';
import { dropFirstPostAnswer } from './network-gate.js';
import {
  type OfflinePhone,
  picture as pictureOf,
  signUpAndPair,
  startOfflinePhone,
} from './offline-phone.js';
import { shoot } from './screenshot.js';
import { screenshotDir } from './screenshot-dir.js';
import { screenOf } from './two-devices.js';

let phone: OfflinePhone;
let page: Page;
let agent: McpAgent;
let threadUrl: string;
let userId: string;

/** A small picture with colour (a shade per call: each photo is other bytes). */
let shade = 0;
function picture(): Buffer {
  shade += 20;
  return pictureOf(shade);
}

/** The person's photo rows, read through the service's own store (not through the phone). */
async function photoRows(): Promise<{ id: string; messageId: string | null }[]> {
  const { store } = phone.service.services as unknown as {
    store: { photos: { listByUser(id: string): Promise<{ id: string; messageId: string | null }[]> } };
  };
  return store.photos.listByUser(userId);
}

const network = (on: boolean) => phone.network(on);

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });
const pending = () => page.locator('.pending-list li');

/** Picks a photo in the screen's photo field and sends it. */
async function sendPhoto(text: string): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await screenOf(page, text).getByText('Take or choose a photo').click();
  await (await chooser).setFiles({ name: 'photo.png', mimeType: 'image/png', buffer: picture() });
  await screenOf(page, text).getByRole('button', { name: 'Send' }).click();
}

beforeAll(async () => {
  phone = await startOfflinePhone('offline-photos');
  page = await phone.browser.context.newPage();
  ({ agent, threadUrl } = await signUpAndPair(phone, page, {
    email: 'photos@example.com',
    agentName: 'Gardener',
  }));
  userId = await page.evaluate(
    () => (JSON.parse(localStorage.getItem('svc-app-session') ?? '{}') as { user: { id: string } }).user.id,
  );
  // The service worker controls the page from its next load on: an offline reload then starts from the device.
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await page.reload();
});
afterAll(async () => {
  await agent?.close();
  await phone?.close();
});

describe("the phone offline: a screen's photo field and Background Sync", () => {
  it('a photo taken offline in a screen waits on the phone, survives a reload, and reaches the agent once, stored once', async () => {
    await agent.show('photo@plant "Show me the plant"', 'Plant');
    await poll(() => screenOf(page, 'Plant').getByText('Take or choose a photo').count()).toBe(1);
    await network(false);
    await sendPhoto('Plant');
    await poll(() => pending().count()).toBe(1);
    await expect(pending().locator('.bubble').textContent()).resolves.toBe('✓ 1 photo');
    await expect(pending().locator('.pending-note').textContent()).resolves.toMatch(
      /^Not sent yet · \d{1,2}:\d{2}/,
    );
    // The photo itself, read from the phone.
    const kept = pending().locator('img.pending-photo');
    await poll(() => kept.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(96);
    expect(await photoRows()).toEqual([]);
    expect(await agent.answers(undefined, 0)).toEqual([]);
    await shoot(page, page, join(screenshotDir, 'offline-screen-photo.png'));

    await page.reload();
    await poll(() => pending().count()).toBe(1);
    await poll(() => kept.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(96);

    await network(true);
    await poll(() => pending().count()).toBe(0);
    const got = await agent.answers();
    expect(got.map((a) => [a.kind, a.event?.id, a.photos?.length ?? 0])).toEqual([['tap', 'plant', 1]]);
    expect(await agent.answers(undefined, 1)).toEqual([]);
    // One photo row, and it is the one the tap carries.
    const rows = await photoRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.messageId).toMatch(/\S/);
  });

  it('a photo upload whose response was lost is sent again with its key: the agent gets the tap once, the photo is stored once', async () => {
    await agent.show('photo@receipt "The receipt, please"', 'Receipt');
    await poll(() => screenOf(page, 'Receipt').getByText('Take or choose a photo').count()).toBe(1);
    // The upload reaches the service and is stored; its answer never comes back to the phone.
    const lose = await dropFirstPostAnswer(phone.browser.context, page, '*/svc-app/agents/*/photos');
    const before = (await photoRows()).length;
    await sendPhoto('Receipt');
    await poll(() => lose.dropped()).toBe(1);
    const got = await agent.answers();
    expect(got.map((a) => [a.kind, a.event?.id, a.photos?.length ?? 0])).toEqual([['tap', 'receipt', 1]]);
    await poll(() => pending().count()).toBe(0);
    expect(await agent.answers(undefined, 1)).toEqual([]);
    // The lost try stored the photo; the resend got that photo back instead of storing a second.
    const rows = await photoRows();
    expect(rows).toHaveLength(before + 1);
    expect(rows.every((r) => r.messageId !== null)).toBe(true);
    await lose.stop();
  });

  it("an answer kept while offline is sent by the service worker's Background Sync with no page of the app open", async () => {
    await network(false);
    await page.getByLabel('Message', { exact: true }).fill('Sent by the worker');
    await page.getByLabel('Message', { exact: true }).press('Enter');
    await poll(() => pending().count()).toBe(1);
    // No page of the app is left to send it: only the service worker can. (Chromium also fires the worker's
    // `sync` by itself when its offline emulation ends; either way the worker's handler sends it, once.)
    const blank = await phone.browser.context.newPage();
    await page.close();
    await network(true);
    // The DevTools protocol names the worker's registration, then fires its `sync` event as the browser would.
    const cdp: CDPSession = await phone.browser.context.newCDPSession(blank);
    const registration = new Promise<string>((resolve) => {
      cdp.on(
        'ServiceWorker.workerRegistrationUpdated',
        (e: { registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] }) => {
          const mine = e.registrations.find((r) => r.scopeURL.startsWith(phone.url) && !r.isDeleted);
          if (mine) resolve(mine.registrationId);
        },
      );
    });
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.dispatchSyncEvent', {
      origin: phone.url,
      registrationId: await registration,
      tag: 'svc-outbox',
      lastChance: false,
    });
    const got = await agent.answers();
    expect(got.map((a) => a.text)).toEqual(['Sent by the worker']);
    expect(await agent.answers(undefined, 1)).toEqual([]);
    await cdp.detach();
    // The app, opened again, has nothing left to send.
    page = blank;
    await page.goto(threadUrl);
    await poll(() => page.locator('.thread').first().textContent()).toContain('Sent by the worker');
    expect(await pending().count()).toBe(0);
  });
});
