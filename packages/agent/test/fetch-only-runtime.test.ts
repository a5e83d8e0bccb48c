// The package on a runtime with fetch and nothing of Node: its built file bundled for the browser (a Node
// built-in anywhere in its imports fails the bundle), then run in a Chromium page that asks and gets a tap.
import { build } from 'esbuild';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pairedAgent, type Service, startService } from './service.js';

const DIST = new URL('../dist/index.js', import.meta.url).pathname;
let service: Service;
let browser: Browser;

beforeAll(async () => {
  service = await startService();
  browser = await chromium.launch({
    // The global set-up found or installed it (config/chromium-setup.ts).
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--no-first-run',
      '--disable-sync',
    ],
    timeout: 20_000,
  });
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

it('bundles for the browser without Node built-ins and asks a person from a page', async () => {
  const bundled = await build({
    entryPoints: [DIST],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  const code = bundled.outputFiles[0]?.text ?? '';
  expect(code).not.toMatch(/from ["']node:|require\(["']node:/);
  const paired = await pairedAgent(service.base);
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error(e));
  // A page of the service's own origin (so the tool server needs no CORS) that loads only the bundle.
  await page.route(`${service.base}/sdk-page`, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>sdk</title>' }),
  );
  await page.route(`${service.base}/sdk.js`, (route) =>
    route.fulfill({ contentType: 'text/javascript', body: code }),
  );
  await page.goto(`${service.base}/sdk-page`);
  // A string, so the test runner's module transform leaves the page's own dynamic import alone.
  const asked = page.evaluate(`(async () => {
    const sdk = await import('/sdk.js');
    const svc = sdk.connect({ url: ${JSON.stringify(service.mcpUrl)}, token: ${JSON.stringify(paired.token)} });
    const pick = await svc.choose('From a browser?', ['Yes', 'No']);
    await svc.close();
    return pick;
  })()`);
  const screen = await paired.person.nextScreen(new Set());
  await paired.person.tap(screen.id, { id: 'ask', value: 'Yes' });
  expect(await asked).toBe('Yes');
});
