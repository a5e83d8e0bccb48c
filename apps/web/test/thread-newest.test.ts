// Issue 38 item 1 in real Chromium at 390×844: a thread of 30 messages ending in photos, charts and tables
// opens on its newest message (above the composer) every time, views that grow after layout keep the
// bottom in view, a photo the person sends lands above the composer, and the "New ↓" pill shows whenever
// something new is below the fold.
import { join } from 'node:path';
import type { Page, Route } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chromium, launchChromium } from './chromium.js';
import { connectMcpAgent, type McpAgent } from './mcp-agent.js';
import { screenshotDir } from './screenshot-dir.js';
import { startService } from './server.js';

const WIDTH = 390;
const HEIGHT = 844;
/** How long each photo takes to arrive, as over a phone network: long enough that layout runs first. */
const PHOTO_LATENCY_MS = 400;

let service: Awaited<ReturnType<typeof startService>>;
let browser: Chromium;
let page: Page;
let agent: McpAgent;
let token: string;
let session: { access_token: string };
let agentId: string;

async function api<T>(method: string, path: string, body?: unknown, raw?: Buffer): Promise<T> {
  const res = await fetch(`${service.url}/functions/v1/svc-app${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(raw ? { 'content-type': 'image/png' } : body ? { 'content-type': 'application/json' } : {}),
    },
    ...(raw ? { body: new Uint8Array(raw) } : body ? { body: JSON.stringify(body) } : {}),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

/** A real PNG of the given size (a phone photo is taller than it is wide). */
function png(width: number, height: number, shade: number): Buffer {
  const image = new PNG({ width, height });
  for (let i = 0; i < image.data.length; i += 4) {
    image.data[i] = shade;
    image.data[i + 1] = 120;
    image.data[i + 2] = 255 - shade;
    image.data[i + 3] = 255;
  }
  return PNG.sync.write(image);
}

/** The person sends a photo (through the API, as the app's composer does). */
async function sendPhoto(width: number, height: number, shade: number): Promise<void> {
  const { id } = await api<{ id: string }>(
    'POST',
    `/agents/${agentId}/photos`,
    undefined,
    png(width, height, shade),
  );
  await api('POST', `/agents/${agentId}/messages`, { text: '(photo)', photo_ids: [id] });
}

/** Everything that arrives after layout has arrived: every photo decoded and every table and chart drawn. */
function settledCounts(p: Page) {
  return p.evaluate(() => ({
    images: [...document.querySelectorAll<HTMLImageElement>('.thread img')].filter(
      (img) => img.complete && img.naturalWidth > 0,
    ).length,
    tables: document.querySelectorAll('.thread .svc-table').length,
    charts: document.querySelectorAll('.thread .svc-chart-svg').length,
  }));
}

/** The last message's bottom, the composer's top and the pill, in window pixels. */
function layout(p: Page) {
  return p.evaluate(() => {
    const last = document.querySelector('.thread')!.lastElementChild!.getBoundingClientRect();
    const composer = document.querySelector('.composer')!.getBoundingClientRect();
    return {
      lastBottom: last.bottom,
      composerTop: composer.top,
      pill: !document.querySelector<HTMLElement>('.new-pill')!.hidden,
    };
  });
}

const twoFrames = (p: Page) =>
  p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/** A photo's signed link on the service. */
const PHOTO_LINK = /\/photos\/[^/?]+\?/;

/** Photos arrive late, as over a phone network (served by the real service, held back here). */
async function slowPhotos(p: Page): Promise<void> {
  await p.route(PHOTO_LINK, async (route) => {
    await new Promise((r) => setTimeout(r, PHOTO_LATENCY_MS));
    await route.continue().catch(() => {});
  });
}

let expected = { images: 0, tables: 0, charts: 0 };

beforeAll(async () => {
  service = await startService();
  const signup = await fetch(`${service.url}/functions/v1/svc-app/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'newest@example.com', password: 'correct horse battery' }),
  });
  session = (await signup.json()) as { access_token: string };
  token = session.access_token;
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
  agent = await connectMcpAgent(
    service.url,
    ((await res.json()) as { connector_token: string }).connector_token,
  );

  // 30 messages: text, photos, charts and tables, ending in photos and table views (the reported case).
  const days = Array.from({ length: 12 }, (_, i) => `2026-11-${String(i + 1).padStart(2, '0')}`);
  await agent.show(
    [
      'table create Weights Day:date Kg:number',
      ...days.map((d, i) => `put Weights Day=${d} Kg=${(74 - i * 0.3).toFixed(1)}`),
      'query Weights as chart line x=Day y=Kg unit=kg "Trend"',
    ].join('\n'),
  );
  expected.charts++;
  for (let i = 0; i < 26; i++) {
    const kind = i % 6;
    if (kind === 0) await agent.say(`Note ${i}: keep going, you are doing well.`);
    else if (kind === 1) {
      await sendPhoto(600, 800, i * 9);
      expected.images++;
    } else if (kind === 2) {
      await agent.show('query Weights sort=-Day limit=8', `Table ${i}`);
      expected.tables++;
    } else if (kind === 3) {
      await agent.show('query Weights as chart bar x=Day y=Kg unit=kg', `Chart ${i}`);
      expected.charts++;
    } else if (kind === 4) await agent.show(`choose@pick${i} "Lunch?" Soup|Salad|Pizza`);
    else {
      await sendPhoto(1200, 900, i * 9);
      expected.images++;
    }
  }
  await sendPhoto(600, 800, 30);
  await sendPhoto(800, 1000, 60);
  await agent.show('query Weights sort=-Day limit=10', 'The last ten days');
  expected = { ...expected, images: expected.images + 2, tables: expected.tables + 1 };
  const page1 = await api<{ messages: unknown[] }>('GET', `/agents/${agentId}/messages?limit=50`);
  expect(page1.messages).toHaveLength(30);

  // Photos' bytes are held with a route below: no service worker in between.
  browser = await launchChromium({ viewport: { width: WIDTH, height: HEIGHT }, serviceWorkers: 'block' });
  page = await browser.context.newPage();
  await page.addInitScript((s) => localStorage.setItem('svc-app-session', JSON.stringify(s)), session);
  await slowPhotos(page);
}, 120_000);

afterAll(async () => {
  await agent?.close();
  await browser?.close();
  await service?.dispose();
});

describe('the newest message in view (390×844)', () => {
  it('opens 10 times with the last message above the composer, after photos, charts and tables drew', async () => {
    const misses: string[] = [];
    for (let open = 1; open <= 10; open++) {
      await page.goto(`${service.url}/#/`);
      await page.goto(`${service.url}/#/a/${agentId}`);
      await expect.poll(() => settledCounts(page), { timeout: 20_000 }).toEqual(expected);
      await twoFrames(page);
      const l = await layout(page);
      // Either the newest message is in view, or the pill says something new is below.
      if (!(l.lastBottom <= l.composerTop))
        misses.push(`open ${open}: ${l.lastBottom} > ${l.composerTop} (pill ${l.pill})`);
    }
    expect(misses).toEqual([]);
    await page.screenshot({ path: join(screenshotDir, 'thread-phone-photos.png') });
  });

  it("puts the person's own photo above the composer after sending it, even from older messages", async () => {
    // The person reads older messages, then sends; the live stream brings the message back before the
    // send's own answer does (a slow uplink): the thread still goes to the person's bubble.
    await page.evaluate(() => {
      const list = document.querySelector('.thread')!;
      list.scrollTop = list.scrollHeight / 2;
    });
    await expect.poll(async () => (await layout(page)).lastBottom > HEIGHT).toBe(true);
    const before = await page.locator('.thread > li').count();
    const sendAnswer = async (route: Route) => {
      const response = await route.fetch();
      await expect.poll(() => page.locator('.thread > li').count()).toBe(before + 1);
      await route.fulfill({ response });
    };
    const SEND = new RegExp(`/agents/${agentId}/messages$`);
    await page.route(SEND, sendAnswer);
    try {
      await page.locator('#attach').setInputFiles({
        name: 'lunch.png',
        mimeType: 'image/png',
        buffer: png(900, 1200, 200),
      });
      await page.getByRole('button', { name: 'Send' }).click();
      await expect.poll(() => page.locator('.thread > li').count()).toBe(before + 1);
      const mine = page.locator('.thread > li').last();
      expect(await mine.getAttribute('class')).toContain('mine');
      await expect.poll(() => page.getByRole('button', { name: 'Send' }).isEnabled()).toBe(true);
      await expect
        .poll(() =>
          mine.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
        )
        .toBe(true);
      await twoFrames(page);
      const l = await layout(page);
      expect(l.lastBottom).toBeLessThanOrEqual(l.composerTop);
    } finally {
      await page.unroute(SEND, sendAnswer);
    }
  });

  it('gives a photo its height before its bytes arrive', async () => {
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    const hold = async (route: Route) => {
      await held;
      await route.continue().catch(() => {});
    };
    await page.route(PHOTO_LINK, hold);
    try {
      const before = await page.locator('.thread > li').count();
      await sendPhoto(600, 800, 90);
      await expect.poll(() => page.locator('.thread > li').count()).toBe(before + 1);
      const img = page.locator('.thread > li').last().locator('img');
      await twoFrames(page);
      const box = await img.evaluate((i: HTMLImageElement) => ({
        loaded: i.complete && i.naturalWidth > 0,
        width: i.getBoundingClientRect().width,
        height: i.getBoundingClientRect().height,
      }));
      expect(box.loaded).toBe(false);
      expect(box.width).toBeGreaterThan(100);
      expect(Math.abs(box.height - (box.width * 800) / 600)).toBeLessThan(1);
      const l = await layout(page);
      expect(l.lastBottom).toBeLessThanOrEqual(l.composerTop);
    } finally {
      release();
      await page.unroute(PHOTO_LINK, hold);
    }
  });

  it('shows the "New ↓" pill when a view arrives below the fold while the person reads, and goes to it', async () => {
    await page.evaluate(() => {
      const list = document.querySelector('.thread')!;
      list.scrollTop = list.scrollHeight / 2;
    });
    await expect.poll(async () => (await layout(page)).lastBottom > HEIGHT).toBe(true);
    const before = await page.locator('.thread .svc-table').count();
    await agent.show('query Weights sort=Day limit=12', 'All of it');
    await expect.poll(() => page.locator('.thread .svc-table').count()).toBe(before + 1);
    await expect.poll(async () => (await layout(page)).pill).toBe(true);
    await page.getByRole('button', { name: 'New ↓' }).click();
    await twoFrames(page);
    const l = await layout(page);
    expect(l.pill).toBe(false);
    expect(l.lastBottom).toBeLessThanOrEqual(l.composerTop);
  });
});
