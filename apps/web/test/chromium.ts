// Launches Debian's Chromium through playwright-core: headless, fresh profile, no network helpers (toolchain.md).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

export interface Chromium {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * One persistent context per test file with a fresh --user-data-dir that is removed on close; given `dir`,
 * that profile is opened and kept on close (a browser restarted on the same phone).
 */
export async function launchChromium(
  options: {
    colorScheme?: 'light' | 'dark';
    viewport?: { width: number; height: number };
    dir?: string;
    /**
     * `block`: no service worker. A route of Playwright does not see what a service worker fetches (photos,
     * kept reads, ADR 0277): a test that holds such requests with a route runs without one.
     */
    serviceWorkers?: 'allow' | 'block';
  } = {},
): Promise<Chromium> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'svc-chromium-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ARGS,
    viewport: options.viewport ?? { width: 420, height: 860 },
    colorScheme: options.colorScheme ?? 'light',
    serviceWorkers: options.serviceWorkers ?? 'allow',
    timeout: 20_000,
  });
  context.setDefaultTimeout(5_000);
  return {
    context,
    async close() {
      await context.close().catch(() => {});
      if (!options.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * One Chromium for a test file that needs several devices at once (a computer and a phone): each
 * `browser.newContext()` is a fresh profile with its own cookies and storage.
 */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ARGS, timeout: 20_000 });
}

export type { Browser };
