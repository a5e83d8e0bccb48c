// OAuth sign-in through the consent page in real Chromium against the real service: a public client registers,
// the browser follows /authorize to the page, the person approves (QR + phone, code entry, phone Open) or
// refuses (Deny, Cancel), and the client's loopback redirect URI receives the code or access_denied.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import jsQR from 'jsqr';
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, launchBrowser } from './chromium.js';
import { connectMcpAgent } from './mcp-agent.js';
import { type Callback, registerClient, signUp, startCallback } from './oauth-client.js';
import { meanLuminance, shoot } from './screenshot.js';
import { screenshotDir } from './screenshot-dir.js';
import { startService } from './server.js';

const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };
const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
};

let service: Awaited<ReturnType<typeof startService>>;
let browser: Browser;
let callback: Callback;
const contexts: BrowserContext[] = [];
let people = 0;

beforeAll(async () => {
  service = await startService();
  browser = await launchBrowser();
  callback = await startCallback();
  mkdirSync(screenshotDir, { recursive: true });
});

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await browser?.close();
  await callback?.close();
  await service?.dispose();
});

const oauthUrl = () => `${service.url}/functions/v1/svc-oauth`;

async function newPage(options: BrowserContextOptions, session?: unknown): Promise<Page> {
  const context = await browser.newContext(options);
  contexts.push(context);
  if (session)
    await context.addInitScript((s) => localStorage.setItem('svc-app-session', s), JSON.stringify(session));
  return context.newPage();
}

/** A person with an account, and their phone already signed in to the app. */
async function person() {
  const account = await signUp(service.url, `person${++people}@example.com`);
  return { ...account, phone: await newPage(PHONE, account.session) };
}

/** A client named `name` sends a fresh browser (desktop or phone) to /authorize: it lands on the consent page. */
async function startSignIn(options: BrowserContextOptions, name = 'Claude', page?: Page) {
  const client = await registerClient(service.url, name, callback.uri);
  const browserPage = page ?? (await newPage(options));
  const navigations: string[] = [];
  browserPage.on('framenavigated', (f) => {
    if (f === browserPage.mainFrame()) navigations.push(f.url());
  });
  await browserPage.goto(client.authorizeUrl);
  await browserPage.locator('#code').waitFor();
  const url = new URL(browserPage.url());
  expect(url.pathname).toBe('/connect');
  const requestId = url.searchParams.get('request')!;
  expect(requestId).toMatch(/^ar_[A-Za-z0-9_-]{22}$/);
  return { client, page: browserPage, requestId, navigations };
}

/** Waits until the page is on the client's redirect URI and returns the query it was called with. */
async function landed(page: Page): Promise<URLSearchParams> {
  await page.waitForURL((u) => u.href.startsWith(callback.uri), { timeout: 15_000 });
  const query = new URL(page.url()).searchParams;
  expect(callback.calls.at(-1)?.toString()).toBe(query.toString());
  return query;
}

describe('the consent page', () => {
  it('a computer shows a QR of the approval link; Allow on the phone sends the client back with a code, no reload', async () => {
    const { client, page, requestId, navigations } = await startSignIn(DESKTOP);
    await expect
      .poll(() => page.locator('#consent-title').textContent())
      .toBe('Connect Claude to Screen Service');
    const host = new URL(callback.uri).host;
    expect(await page.locator('.return-host').textContent()).toBe(host);
    expect(await page.locator('.return-uri').textContent()).toBe(callback.uri);
    expect(await page.locator('#open-app').count()).toBe(0);

    const approveUrl = `${service.url}/#/approve/${requestId}`;
    const png = PNG.sync.read(await page.locator('.qr svg').screenshot());
    // jsqr is CommonJS: the default import is module.exports, which carries the decoder as `default`.
    const decoded = jsQR.default(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(decoded?.data).toBe(approveUrl);
    expect(await page.getByText("Scan with your phone's camera").isVisible()).toBe(true);
    expect(await page.locator('.approve-link a').textContent()).toBe(approveUrl);
    // The service runs on 127.0.0.1 here, as `npm start` runs on localhost: the page says a phone cannot
    // open the code and how the operator gives it a reachable address.
    const port = new URL(service.url).port;
    const note = page.getByRole('note');
    expect(await note.isVisible()).toBe(true);
    expect(await note.textContent()).toBe(
      `A phone cannot open this code: it points at 127.0.0.1:${port}, this computer only.` +
        'To approve from your phone, start the service with SVC_BASE_URL set to an address your phone reaches, ' +
        `for example SVC_BASE_URL=http://192.168.1.20:${port} npm start (this computer's address on your Wi-Fi) ` +
        'or its public https address, then sign in again. Or approve here, or type a code below.',
    );
    const desktop: Record<string, number> = {};
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      // shoot() waits for the buttons' colour transitions to finish instead of a fixed sleep.
      const png = await shoot(page, page, join(screenshotDir, `consent-desktop-${scheme}.png`), {
        fullPage: true,
      });
      desktop[scheme] = meanLuminance(png);
    }
    expect(desktop.dark).toBeLessThan(desktop.light! - 0.2);
    await page.emulateMedia({ colorScheme: 'light' });

    const { phone, call } = await person();
    await phone.goto(decoded!.data);
    await expect
      .poll(() => phone.locator('#approve-client').textContent())
      .toBe('Claude wants to send you screens');
    expect(await phone.getByLabel('A new agent named').isChecked()).toBe(true);
    expect(await phone.getByLabel('Name of the new agent').inputValue()).toBe('Claude');
    const approve: Record<string, number> = {};
    for (const scheme of ['light', 'dark'] as const) {
      await phone.emulateMedia({ colorScheme: scheme });
      approve[scheme] = meanLuminance(
        await shoot(phone, phone, join(screenshotDir, `approve-${scheme}.png`)),
      );
    }
    expect(approve.dark).toBeLessThan(approve.light! - 0.2);
    await phone.emulateMedia({ colorScheme: 'light' });
    await phone.getByRole('button', { name: 'Allow' }).click();
    await expect
      .poll(() => phone.getByRole('status').textContent())
      .toBe('Approved. Go back to Claude on your computer.');

    const query = await landed(page);
    expect(query.get('state')).toBe(client.state);
    expect(query.get('iss')).toBe(oauthUrl());
    expect(query.get('error')).toBeNull();
    // The consent page loaded once: it learned of the approval by long-polling, not by a reload.
    expect(navigations.filter((u) => u.includes('/connect'))).toHaveLength(1);

    const token = await client.exchange(query.get('code')!);
    expect(token.status).toBe(200);
    expect(token.body.access_token).toMatch(/^svc_at_/);
    expect(token.body.refresh_token).toMatch(/^svc_rt_/);
    const agent = await connectMcpAgent(service.url, token.body.access_token as string);
    await agent.say('Signed in through the consent page.');
    await agent.close();
    const { agents } = await call<{ agents: { name: string; status: string }[] }>('GET', '/agents');
    expect(agents).toEqual([expect.objectContaining({ name: 'Claude', status: 'connected' })]);
    await phone.goto(`${service.url}/#/`);
    await expect.poll(() => phone.locator('.agent-list').textContent()).toContain('Connected');
    // The approval is one line in the connections list, marked as a sign-in, with the same kill switch.
    await phone.goto(`${service.url}/#/connections`);
    await expect.poll(() => phone.locator('.conn-list').textContent()).toMatch(/Claude\s*signed in/);
  });

  it('the code-entry path: the code of an agent added in the app approves, typed as "123 456"', async () => {
    const { client, page } = await startSignIn(DESKTOP, 'Cursor');
    const { call } = await person();
    const created = await call<{ agent: { id: string }; pairing: { code: string } }>('POST', '/agents', {
      name: 'Cursor',
    });
    const code = created.pairing.code;
    await page
      .getByLabel('Or add an agent in the app and type its 6-digit code here')
      .fill(`${code.slice(0, 3)} ${code.slice(3)}`);
    await page.getByRole('button', { name: 'Connect' }).click();
    const query = await landed(page);
    expect(query.get('code')).toBeTruthy();
    expect([query.get('state'), query.get('iss')]).toEqual([client.state, oauthUrl()]);
    const token = await client.exchange(query.get('code')!);
    expect(token.body.access_token).toMatch(/^svc_at_/);
    const { agents } = await call<{ agents: { id: string; status: string }[] }>('GET', '/agents');
    expect(agents).toEqual([expect.objectContaining({ id: created.agent.id, status: 'connected' })]);
    // Back from the client: finishing cleared the browser's cookie, so the page says how to start over.
    await page.goBack();
    await expect
      .poll(() => page.locator('#consent-title').textContent())
      .toBe('This sign-in is not open in this browser');
  });

  it('a signed-out phone signs up at the approval link, lands back on it, and Deny sends access_denied', async () => {
    const { client, page, requestId } = await startSignIn(DESKTOP, 'Zed');
    const phone = await newPage(PHONE);
    await phone.goto(`${service.url}/#/approve/${requestId}`);
    await phone.getByLabel('Email').fill('signed-out@example.com');
    await phone.getByLabel(/^Password/).fill('correct horse battery');
    await phone.getByRole('button', { name: 'Create account' }).click();
    await expect
      .poll(() => phone.locator('#approve-client').textContent())
      .toBe('Zed wants to send you screens');
    expect(new URL(phone.url()).hash).toBe(`#/approve/${requestId}`);
    await phone.getByRole('button', { name: 'Deny' }).click();
    await expect.poll(() => phone.getByRole('status').textContent()).toBe('Denied.');
    const query = await landed(page);
    expect(query.get('error')).toBe('access_denied');
    expect([query.get('state'), query.get('iss'), query.get('code')]).toEqual([
      client.state,
      oauthUrl(),
      null,
    ]);
  });

  it('on a phone: no QR, Open goes to the app, Allow on an existing agent comes back to the client signed in', async () => {
    const { call, session } = await person();
    const existing = await call<{ agent: { id: string } }>('POST', '/agents', { name: 'Helper' });
    const phone = await newPage(PHONE, session);
    const { client, page, requestId } = await startSignIn(PHONE, 'ChatGPT', phone);
    expect(await page.locator('.qr').count()).toBe(0);
    const open = page.getByRole('link', { name: 'Open Screen Service' });
    expect(await open.getAttribute('href')).toBe(`${service.url}/#/approve/${requestId}/here`);
    await page.screenshot({ path: join(screenshotDir, 'consent-phone-light.png'), fullPage: true });
    await open.tap();
    await expect
      .poll(() => page.locator('#approve-client').textContent())
      .toBe('ChatGPT wants to send you screens');
    await page.getByLabel('Helper').check();
    await page.getByRole('button', { name: 'Allow' }).tap();
    const query = await landed(page);
    expect([query.get('state'), query.get('iss')]).toEqual([client.state, oauthUrl()]);
    const token = await client.exchange(query.get('code')!);
    expect(token.body.access_token).toMatch(/^svc_at_/);
    const { agents } = await call<{ agents: { id: string; name: string }[] }>('GET', '/agents');
    // The existing agent was bound; no new agent named after the client.
    expect(agents.map((a) => a.name)).toEqual(['Helper']);
    expect(agents[0]!.id).toBe(existing.agent.id);
  });

  it('a wrong code shows the refusal inline and keeps the page; Cancel sends access_denied', async () => {
    const { client, page } = await startSignIn(DESKTOP, 'Goose');
    const input = page.locator('#code');
    await input.fill('12 34');
    await page.getByRole('button', { name: 'Connect' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('6 digits');
    await input.fill('000 001');
    await page.getByRole('button', { name: 'Connect' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).not.toContain('6 digits');
    const said = await page.getByRole('alert').textContent();
    expect(said?.length).toBeGreaterThan(10);
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    expect(new URL(page.url()).pathname).toBe('/connect');
    await page.getByRole('button', { name: 'Cancel' }).click();
    const query = await landed(page);
    expect(query.get('error')).toBe('access_denied');
    expect([query.get('state'), query.get('iss')]).toEqual([client.state, oauthUrl()]);
  });

  it('another browser (no cookie) and an unknown request each get a message naming the fix', async () => {
    const { page } = await startSignIn(DESKTOP, 'Elsewhere');
    const other = await newPage(DESKTOP);
    await other.goto(page.url());
    await expect
      .poll(() => other.locator('#consent-title').textContent())
      .toBe('This sign-in is not open in this browser');
    expect(await other.locator('main').textContent()).toContain('start the sign-in again from it');
    await other.goto(`${service.url}/connect?request=ar_AAAAAAAAAAAAAAAAAAAAAA`);
    await expect.poll(() => other.locator('#consent-title').textContent()).toBe('This sign-in was not found');
    await other.goto(`${service.url}/connect`);
    await expect.poll(() => other.locator('#consent-title').textContent()).toBe('No sign-in to show');
  });
});
