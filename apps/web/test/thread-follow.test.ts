// The thread on a phone-sized window (390×844) in real Chromium against the real service: the newest screen
// stays above the composer on open, on each arrival and with the keyboard open; a "new" pill when reading
// older items; svc_show's chat line drawn; the status of a removed connection; the add-agent page's pairing call.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chromium, launchChromium } from './chromium.js';
import { connectMcpAgent, type McpAgent } from './mcp-agent.js';
import { screenshotDir } from './screenshot-dir.js';
import { startService } from './server.js';

const WIDTH = 390;
const HEIGHT = 844;
let service: Awaited<ReturnType<typeof startService>>;
let browser: Chromium;
let page: Page;
let agent: McpAgent;
let session: { access_token: string };
let agentId: string;
let connectorId: string;

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${service.url}/functions/v1/svc-app${path}`, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(session ? { authorization: `Bearer ${session.access_token}` } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

/** The last message's bottom and the composer's top, in window pixels. */
function layout(p: Page) {
  return p.evaluate(() => {
    const last = document.querySelector('.thread')!.lastElementChild!.getBoundingClientRect();
    const composer = document.querySelector('.composer')!.getBoundingClientRect();
    const pill = document.querySelector<HTMLElement>('.new-pill')!;
    return {
      lastBottom: last.bottom,
      lastTop: last.top,
      composerTop: composer.top,
      composerBottom: composer.bottom,
      windowHeight: window.innerHeight,
      pill: !pill.hidden,
      items: document.querySelectorAll('.thread > li').length,
    };
  });
}

const screenCount = (p: Page) => p.locator('.thread .svc-screen').count();

// Screens of different heights, as an agent would send them.
const SCREENS = [
  'choose@pick "Lunch?" Soup|Salad|Pizza',
  'checklist "Before you go" Keys|Phone|Wallet|Charger',
  'text A short note.',
  'image prompt="a red fox in snow"',
  'form "Visit" name:text age:number',
];

beforeAll(async () => {
  service = await startService();
  session = await api('POST', '/auth/signup', {
    email: 'follow@example.com',
    password: 'correct horse battery',
  });
  const created = await api<{ agent: { id: string }; pairing: { code: string } }>('POST', '/agents', {
    name: 'Coach',
  });
  agentId = created.agent.id;
  const res = await fetch(`${service.url}/functions/v1/svc-connect`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      action: 'pair',
      code: created.pairing.code,
      remote_ref: 'coach',
      kind: 'mcp',
      host_name: 'Laptop',
    }),
  });
  const paired = (await res.json()) as { connector_token: string; connector: { id: string } };
  connectorId = paired.connector.id;
  agent = await connectMcpAgent(service.url, paired.connector_token);
  browser = await launchChromium({ viewport: { width: WIDTH, height: HEIGHT } });
  page = await browser.context.newPage();
  await page.addInitScript((s) => localStorage.setItem('svc-app-session', JSON.stringify(s)), session);
});

afterAll(async () => {
  await agent?.close();
  await browser?.close();
  await service?.dispose();
});

describe('the thread in a 390×844 window', () => {
  it('opens on the newest screen, fully above the composer', async () => {
    for (let i = 0; i < 8; i++) await agent.show(SCREENS[i % SCREENS.length]!);
    await page.goto(`${service.url}/#/a/${agentId}`);
    await expect.poll(() => screenCount(page)).toBe(8);
    await expect
      .poll(async () => {
        const l = await layout(page);
        return l.lastBottom <= l.composerTop && l.composerBottom <= l.windowHeight;
      })
      .toBe(true);
    // The list really overflows: the first screen is out of view, so the test can fail.
    const firstTop = await page.evaluate(
      () => document.querySelector('.thread > li')!.getBoundingClientRect().top,
    );
    expect(firstTop).toBeLessThan(0);
  });

  it('keeps each of 20 arriving screens fully above the composer', async () => {
    const misses: string[] = [];
    for (let i = 0; i < 20; i++) {
      const before = await screenCount(page);
      await agent.show(SCREENS[i % SCREENS.length]!, i % 4 === 0 ? `Screen ${i + 1} of 20` : undefined);
      await expect.poll(() => screenCount(page)).toBe(before + 1);
      // A screen lands in one frame; wait for that frame, then measure once.
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const l = await layout(page);
      if (!(l.lastBottom <= l.composerTop)) misses.push(`#${i + 1}: ${l.lastBottom} > ${l.composerTop}`);
      expect(l.pill).toBe(false);
    }
    expect(misses).toEqual([]);
  });

  it("draws svc_show's text as a chat line above its screen", async () => {
    await agent.show('confirm "Start the run?"', 'Ready when you are');
    const item = page.locator('.thread > li').last();
    await expect.poll(() => item.locator('.screen-text').textContent()).toBe('Ready when you are');
    const order = await item.evaluate((li) => [...li.children].map((c) => c.className.split(' ')[0]));
    expect(order[0]).toBe('bubble');
    expect(order).toContain('svc-screen');
  });

  it('shows a "new" pill instead of moving the list when the person has scrolled up', async () => {
    // The app learns the person scrolled up from the scroll event, dispatched at a later frame: wait for it
    // (the app's listener, added first, has run when ours does) before an arrival, or the arrival may come
    // first and be followed.
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const list = document.querySelector('.thread')!;
          if (list.scrollTop === 0) return resolve();
          list.addEventListener('scroll', () => resolve(), { once: true });
          list.scrollTop = 0;
        }),
    );
    await expect.poll(async () => (await layout(page)).lastTop > (await layout(page)).composerTop).toBe(true);
    const before = await screenCount(page);
    await agent.show('choose@more "One more?" Yes|No');
    await expect.poll(() => screenCount(page)).toBe(before + 1);
    await expect.poll(async () => (await layout(page)).pill).toBe(true);
    const reading = await page.evaluate(() => document.querySelector('.thread')!.scrollTop);
    expect(reading).toBeLessThan(50);
    await page.screenshot({ path: join(screenshotDir, 'thread-phone-new-pill.png') });
    await page.getByRole('button', { name: 'New ↓' }).click();
    await expect
      .poll(async () => {
        const l = await layout(page);
        return !l.pill && l.lastBottom <= l.composerTop;
      })
      .toBe(true);
  });

  it('keeps the newest screen visible when the keyboard opens (the window shrinks)', async () => {
    await page.locator('#composer').focus();
    await page.setViewportSize({ width: WIDTH, height: 480 });
    await expect
      .poll(async () => {
        const l = await layout(page);
        return l.lastBottom <= l.composerTop && l.composerBottom <= 480 && l.lastBottom > 0;
      })
      .toBe(true);
    await page.setViewportSize({ width: WIDTH, height: HEIGHT });
    await page.screenshot({ path: join(screenshotDir, 'thread-phone.png') });
  });

  it('keeps the layout when the person pinch-zooms (the visual viewport shrinks, the page does not)', async () => {
    const cdp = await browser.context.newCDPSession(page);
    const sized = () =>
      page.evaluate(() => ({
        scale: window.visualViewport!.scale,
        visible: window.visualViewport!.height,
        appHeight: getComputedStyle(document.documentElement).getPropertyValue('--app-height'),
        composerBottom: document.querySelector('.composer')!.getBoundingClientRect().bottom,
      }));
    try {
      await cdp.send('Emulation.setPageScaleFactor', { pageScaleFactor: 2 });
      await expect.poll(async () => (await sized()).scale).toBe(2);
      const zoomed = await sized();
      // The visible part is half the window; the app keeps the whole window's height, composer at its foot.
      expect(zoomed.visible).toBeLessThan(HEIGHT / 2 + 1);
      await expect.poll(async () => (await sized()).appHeight).toBe(`${HEIGHT}px`);
      expect(Math.round((await sized()).composerBottom)).toBe(HEIGHT);
    } finally {
      await cdp.send('Emulation.setPageScaleFactor', { pageScaleFactor: 1 });
      await cdp.detach();
    }
    await expect.poll(async () => (await sized()).appHeight).toBe(`${HEIGHT}px`);
    const l = await layout(page);
    expect(l.lastBottom <= l.composerTop).toBe(true);
  });

  it('a removed connection says so and what to do', async () => {
    await expect.poll(() => page.locator('.thread-head .status').textContent()).toBe('Connected');
    await api('DELETE', `/connections/${connectorId}`);
    await expect
      .poll(() => page.locator('.thread-head .status').textContent())
      .toBe('Connection removed · pair again in settings');
    const listed = await api<{ connector: { removed_at: string | null; last_seen_at: string | null } }>(
      'GET',
      `/agents/${agentId}`,
    );
    expect(listed.connector.removed_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(listed.connector.last_seen_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('an MCP agent idle for 5 minutes says it is idle and when it last called, not "Offline"', async () => {
    const created = await api<{ agent: { id: string }; pairing: { code: string } }>('POST', '/agents', {
      name: 'Scout',
    });
    const res = await fetch(`${service.url}/functions/v1/svc-connect`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        action: 'pair',
        code: created.pairing.code,
        remote_ref: 'scout',
        kind: 'mcp',
        host_name: 'Desktop',
      }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const { connector } = (await res.json()) as { connector: { id: string } };
    // MCP has no heartbeat: its last call is its last sign of life. Put that call 5 minutes back.
    const db = new DatabaseSync(join(service.dataDir, 'svc.sqlite'));
    try {
      db.exec('PRAGMA busy_timeout = 2000');
      db.prepare('UPDATE connectors SET last_seen_at = ? WHERE id = ?').run(
        Date.now() - 5 * 60_000,
        connector.id,
      );
    } finally {
      db.close();
    }
    await page.goto(`${service.url}/#/a/${created.agent.id}`);
    await expect
      .poll(() => page.locator('.thread-head .status').textContent())
      .toBe('Idle · last call 5 min ago');
  });
});

describe('the add-agent page and the title', () => {
  it('says the app name once in the page title (sign-in), and after the view title elsewhere', async () => {
    const signedOut = await browser.context.newPage();
    await signedOut.goto(`${service.url}/#/`);
    await signedOut.evaluate(() => localStorage.removeItem('svc-app-session'));
    await signedOut.reload();
    await expect.poll(() => signedOut.getByLabel('Email').count()).toBe(1);
    expect(await signedOut.title()).toBe('Screen Service');
    await signedOut.close();
    // The shared storage lost the session: a fresh load puts it back (the page's init script).
    await page.goto(`${service.url}/#/`);
    await page.reload();
    await expect.poll(() => page.locator('.agent-list').count()).toBe(1);
    expect(await page.title()).toBe('Agents · Screen Service');
  });

  it('shows the host API address and a pairing call that works as copied', async () => {
    await page.goto(`${service.url}/#/add`);
    await page.getByLabel(/Name it after/).fill('Editor');
    await page.getByRole('button', { name: 'Get a pairing code' }).click();
    const code = await page.locator('output.code').getAttribute('data-code');
    const help = page.locator('.pair-help');
    expect(await help.textContent()).toContain(`${service.url}/functions/v1/svc-connect`);
    expect(await help.textContent()).toContain(`${service.url}/functions/v1/svc-mcp`);
    const example = (await page.locator('.pair-example').textContent())!;
    expect(example.startsWith(`curl -X POST ${service.url}/functions/v1/svc-connect \\\n`)).toBe(true);
    const body = /-d '(.+)'$/.exec(example)![1]!;
    expect(JSON.parse(body)).toMatchObject({ action: 'pair', code, kind: 'mcp' });
    await page.screenshot({ path: join(screenshotDir, 'add-agent-phone.png'), fullPage: true });
    // The call as shown pairs the agent.
    const res = await fetch(`${service.url}/functions/v1/svc-connect`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { connector_token: string }).connector_token).toMatch(/^svc_ct_/);
  });
});
