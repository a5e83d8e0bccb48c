// Clickjacking (issue 22 item 2): a same-site page frames the approval page; in real Chromium the frame
// stays blank, because every page of the service says frame-ancestors 'none' (and X-Frame-Options DENY).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chromium, launchChromium } from './chromium.js';
import { startService } from './server.js';

let service: Awaited<ReturnType<typeof startService>>;
let browser: Chromium;
let page: Page;
let attacker: Server;
let attackerUrl: string;

beforeAll(async () => {
  service = await startService();
  browser = await launchChromium();
  page = await browser.context.newPage();
  // Another port on 127.0.0.1: a different origin of the same site, as a rebinding or sibling page would be.
  attacker = createServer((req, res) => {
    const target = new URL(req.url ?? '/', 'http://x').searchParams.get('frame') ?? '';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><title>win a prize</title><iframe id="f" src="${target}" width="400" height="600"></iframe>`,
    );
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await browser?.close();
  await service?.dispose();
  attacker?.closeAllConnections();
  await new Promise((resolve) => attacker?.close(resolve));
});

/** The framed document's visible text, or null when Chromium refused to show the page in the frame. */
async function framedText(target: string): Promise<string | null> {
  await page.goto(`${attackerUrl}?frame=${encodeURIComponent(target)}`);
  await page.waitForLoadState('load');
  const frame = page.frames().find((f) => f !== page.mainFrame());
  if (!frame?.url().startsWith(service.url)) return null;
  return frame.evaluate(() => document.body?.textContent ?? '').catch(() => null);
}

describe('the approval page cannot be framed', () => {
  it('shows the app on its own but leaves a cross-origin frame of #/approve blank', async () => {
    const approve = `${service.url}/#/approve/oar_0123456789abcdef`;
    await page.goto(approve);
    await page.getByRole('button', { name: 'Create account' }).waitFor();
    const text = await framedText(approve);
    expect(text ?? '').not.toMatch(/Create account|Sign in|Allow/);
    // The attacker's own page did load: only the framed service is blank.
    await expect(page.title()).resolves.toBe('win a prize');
  });

  it('sends the page policy on every page, the API and unknown paths', async () => {
    for (const path of ['/', '/connect', '/playground.html', '/functions/v1/svc-app/me', '/nope']) {
      const res = await fetch(`${service.url}${path}`);
      expect(res.headers.get('content-security-policy'), path).toMatch(/frame-ancestors 'none'/);
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('referrer-policy'), path).toBe('no-referrer');
    }
  });
});
