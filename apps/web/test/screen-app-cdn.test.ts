// The in-chat view with SVC_IMAGE_CDN set, in real Chromium: `image prompt=` loads from the configured CDN
// (a fake one on 127.0.0.1) and from nowhere else; an image from another origin is refused by the view's CSP;
// svc_show's chat line is drawn above the screen.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chromium, launchChromium } from './chromium.js';
import { connectMcpAgent, type McpAgent } from './mcp-agent.js';
import { screenshotDir } from './screenshot-dir.js';
import { startService } from './server.js';
import { signUpAndPair } from './signup-and-pair.js';

const here = dirname(fileURLToPath(import.meta.url));

/** A 240×160 gradient PNG: what the fake CDN answers for any prompt. */
function picture(): Buffer {
  const png = new PNG({ width: 240, height: 160 });
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) {
      const i = (png.width * y + x) << 2;
      png.data[i] = 230;
      png.data[i + 1] = 120 + Math.round((y / png.height) * 100);
      png.data[i + 2] = 60 + Math.round((x / png.width) * 80);
      png.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}

/** An HTTP server on 127.0.0.1 that answers a PNG and records every request path. */
async function imageServer(): Promise<{ origin: string; hits: string[]; server: Server }> {
  const hits: string[] = [];
  const body = picture();
  const server = createServer((req: IncomingMessage, res) => {
    hits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'image/png', 'access-control-allow-origin': '*' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, server };
}

let cdn: Awaited<ReturnType<typeof imageServer>>;
let other: Awaited<ReturnType<typeof imageServer>>;
let service: Awaited<ReturnType<typeof startService>>;
let browser: Chromium;
let agent: McpAgent;
let html: string;
let meta: Record<string, unknown>;
let hostScript: string;

beforeAll(async () => {
  cdn = await imageServer();
  other = await imageServer();
  service = await startService({ imageCdn: `${cdn.origin}/prompt/{prompt}?w=480` });
  agent = await connectMcpAgent(service.url, await signUpAndPair(service.url, 'cdn@example.com'));
  const resource = await agent.client.readResource({ uri: 'ui://svc/screen' });
  const content = resource.contents[0] as { text: string; _meta: Record<string, unknown> };
  html = content.text;
  meta = content._meta;
  const bundled = await build({
    entryPoints: [join(here, 'host', 'host.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  hostScript = bundled.outputFiles[0]!.text;
  browser = await launchChromium();
});

afterAll(async () => {
  await agent?.client.close();
  await browser?.close();
  await service?.dispose();
  for (const s of [cdn?.server, other?.server]) await new Promise((r) => s?.close(r));
});

interface Seen {
  /** Requests that reached a server and were answered. */
  finished: string[];
  /** Requests the browser stopped, with its reason. */
  failed: { url: string; error: string }[];
}

async function hostPage(): Promise<{ page: Page; seen: Seen }> {
  const page = await browser.context.newPage();
  const seen: Seen = { finished: [], failed: [] };
  page.on('requestfinished', (r) => seen.finished.push(r.url()));
  page.on('requestfailed', (r) => seen.failed.push({ url: r.url(), error: r.failure()?.errorText ?? '' }));
  await page.exposeFunction(
    'callTool',
    async (params: { name: string; arguments?: Record<string, unknown> }) =>
      agent.client.callTool({ name: params.name, arguments: params.arguments ?? {} }),
  );
  await page.setContent('<!doctype html><html><body></body></html>');
  await page.addScriptTag({ content: hostScript });
  return { page, seen };
}

describe('ui://svc/screen with SVC_IMAGE_CDN', () => {
  it("lists the CDN's origin beside the service's own in the resource CSP; connects nowhere", () => {
    expect(meta).toMatchObject({
      ui: { csp: { connectDomains: [], resourceDomains: [service.url, cdn.origin] } },
      'openai/widgetCSP': { connect_domains: [], resource_domains: [service.url, cdn.origin] },
    });
    expect(html).toContain(`img-src data: blob: ${service.url} ${cdn.origin}; connect-src 'none'`);
  });

  it('draws image prompt= from the CDN and nothing from any other origin; the chat line sits above', async () => {
    const { page, seen } = await hostPage();
    const result = await agent.client.callTool({
      name: 'svc_show',
      arguments: {
        lines: `image prompt="a red fox in snow"\nimage ${other.origin}/elsewhere.png\nchoose@ok "Like it?" Yes|No`,
        text: 'Here is the fox you asked for',
      },
    });
    expect(result.isError).toBeFalsy();
    await page.evaluate(([h, r]) => window.openView(h as string, r, 'light', true), [html, result] as const);
    const view = page.frameLocator('iframe');
    await expect
      .poll(() => view.locator('.svc-chat-line').textContent())
      .toBe('Here is the fox you asked for');
    const fox = view.locator('img[alt="a red fox in snow"]');
    await expect
      .poll(() => fox.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(240);
    expect(await fox.getAttribute('src')).toBe(`${cdn.origin}/prompt/a%20red%20fox%20in%20snow?w=480`);
    expect(cdn.hits).toEqual(['/prompt/a%20red%20fox%20in%20snow?w=480']);
    // The other origin's image is refused by the page's CSP before any request leaves the browser.
    const foreign = view.locator(`img[src="${other.origin}/elsewhere.png"]`);
    await expect.poll(() => foreign.evaluate((img: HTMLImageElement) => img.complete)).toBe(true);
    expect(await foreign.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(0);
    expect(other.hits).toEqual([]);
    expect(seen.finished.filter((u) => /^https?:/.test(u))).toEqual([
      `${cdn.origin}/prompt/a%20red%20fox%20in%20snow?w=480`,
    ]);
    expect(seen.failed.length).toBeGreaterThan(0);
    for (const f of seen.failed) {
      expect(f.url).toBe(`${other.origin}/elsewhere.png`);
      expect(f.error).toMatch(/csp/i);
    }
    await page.locator('iframe').screenshot({ path: join(screenshotDir, 'in-chat-image.png') });
    await page.close();
  });
});
