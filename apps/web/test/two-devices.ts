// Two devices of one person in one Chromium (issue 37): a phone and a laptop signed in to the same account,
// an agent added on the phone and paired with `kind`, its thread open on both.
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { type Browser, launchBrowser } from './chromium.js';

export interface TwoDevices {
  browser: Browser;
  phone: BrowserContext;
  laptop: BrowserContext;
  onPhone: Page;
  onLaptop: Page;
  agentId: string;
  /** The connection token the agent was paired with. */
  token: string;
  /** Signs a new context in and opens the thread (another device). */
  signIn(page: Page, create?: boolean): Promise<void>;
  openThread(page: Page): Promise<void>;
  close(): Promise<void>;
}

const PASSWORD = 'correct horse battery';

/** The screen whose chat line is `text` (svc_show's text), on one page. */
export const screenOf = (page: Page, text: string) =>
  page
    .locator('li.msg', { has: page.locator('.screen-text').getByText(text, { exact: true }) })
    .locator('.svc-screen');
export const bars = (page: Page, text: string) => screenOf(page, text).locator('rect.svc-chart-bar').count();
export const tableRows = (page: Page, text: string) =>
  screenOf(page, text).locator('.svc-table tbody tr').count();

/** Signs up on the phone, adds `agentName`, pairs it as `kind` and opens its thread on the phone and the laptop. */
export async function twoDevices(
  url: string,
  email: string,
  agentName: string,
  kind: string,
): Promise<TwoDevices> {
  const browser = await launchBrowser();
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const laptop = await browser.newContext({ viewport: { width: 1000, height: 800 } });
  phone.setDefaultTimeout(5_000);
  laptop.setDefaultTimeout(5_000);
  const onPhone = await phone.newPage();
  const onLaptop = await laptop.newPage();
  const signIn = async (page: Page, create = false) => {
    await page.goto(url);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByRole('button', { name: create ? 'Create account' : 'Sign in' }).click();
    await page.locator('.agent-list').waitFor({ timeout: 15_000 });
  };
  await signIn(onPhone, true);
  await onPhone.goto(`${url}/#/add`);
  await onPhone.getByLabel(/Name it after/).fill(agentName);
  await onPhone.getByRole('button', { name: 'Get a pairing code' }).click();
  const code = await onPhone.locator('output.code').getAttribute('data-code');
  const res = await fetch(`${url}/functions/v1/svc-connect`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      action: 'pair',
      code,
      remote_ref: agentName.toLowerCase(),
      kind,
      host_name: 'Laptop',
    }),
  });
  const token = ((await res.json()) as { connector_token: string }).connector_token;
  await onPhone.getByRole('link', { name: 'Open the thread' }).click();
  await onPhone.locator('.thread-head').getByText(agentName).waitFor({ timeout: 15_000 });
  const agentId = /#\/a\/([^/]+)/.exec(onPhone.url())![1]!;
  const openThread = async (page: Page) => {
    await page.goto(`${url}/#/a/${agentId}`);
    await page.locator('.thread-head').getByText(agentName).waitFor({ timeout: 15_000 });
  };
  await signIn(onLaptop);
  await openThread(onLaptop);
  return {
    browser,
    phone,
    laptop,
    onPhone,
    onLaptop,
    agentId,
    token,
    signIn,
    openThread,
    close: () => browser.close(),
  };
}

/** 200 messages from the person (the person's API; an agent's own calls are limited per second). */
export async function sendMessages(
  url: string,
  email: string,
  agentId: string,
  count: number,
): Promise<void> {
  const api = `${url}/functions/v1/svc-app`;
  const post = (path: string, body: unknown, token?: string) =>
    fetch(`${api}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  const session = (await (await post('/auth/signin', { email, password: PASSWORD })).json()) as {
    access_token: string;
  };
  for (let i = 0; i < count; i++) {
    const res = await post(`/agents/${agentId}/messages`, { text: `note ${i}` }, session.access_token);
    if (res.status === 429) {
      await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 1)));
      i--;
    } else expect(res.status).toBe(201);
  }
}
