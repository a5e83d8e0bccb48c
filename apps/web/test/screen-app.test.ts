// The in-chat view ui://svc/screen in real Chromium: inside a host page that uses ext-apps' AppBridge, and
// with only the older window.openai global. Taps reach the host as the next message and svc_tap records them.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chromium, launchChromium } from './chromium.js';
import { connectMcpAgent, type McpAgent } from './mcp-agent.js';
import { screenshotDir } from './screenshot-dir.js';
import { startService } from './server.js';
import { signUpAndPair } from './signup-and-pair.js';

const here = dirname(fileURLToPath(import.meta.url));
const shots = screenshotDir;
let service: Awaited<ReturnType<typeof startService>>;
let browser: Chromium;
let agent: McpAgent;
let html: string;
let hostScript: string;

beforeAll(async () => {
  service = await startService();
  agent = await connectMcpAgent(service.url, await signUpAndPair(service.url, 'view@example.com'));
  const resource = await agent.client.readResource({ uri: 'ui://svc/screen' });
  const content = resource.contents[0] as { text: string; mimeType: string };
  expect(content.mimeType).toBe('text/html;profile=mcp-app');
  html = content.text;
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
});

async function showTool(lines: string) {
  const result = await agent.client.callTool({ name: 'svc_show', arguments: { lines } });
  return result as unknown as { structuredContent: { screen_id: string } };
}

async function hostPage(): Promise<Page> {
  const page = await browser.context.newPage();
  await page.exposeFunction(
    'callTool',
    async (params: { name: string; arguments?: Record<string, unknown> }) =>
      agent.client.callTool({ name: params.name, arguments: params.arguments ?? {} }),
  );
  await page.setContent('<!doctype html><html><body></body></html>');
  await page.addScriptTag({ content: hostScript });
  return page;
}

describe('ui://svc/screen', () => {
  it('is one self-contained HTML file within its size budget (250 KB)', () => {
    const bytes = Buffer.byteLength(html);
    console.log(`ui://svc/screen: ${(bytes / 1024).toFixed(1)} KB (goal 250 KB)`);
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
    // The budget from issue 8: the view carries no parser and only the zod builders it calls (ADR 0074).
    expect(bytes).toBeLessThanOrEqual(250 * 1024);
  });

  it('in an AppBridge host: a tap becomes ui/message, then a handled svc_tap that svc_answers does not return', async () => {
    const page = await hostPage();
    const result = await showTool('text Pick one\nchoose@lunch "Lunch?" Soup|Salad|Pizza');
    await page.evaluate(([h, r]) => window.openView(h as string, r, 'dark', true), [html, result] as const);
    const view = page.frameLocator('iframe');
    await view.getByRole('button', { name: 'Pizza' }).click();
    await expect.poll(() => page.evaluate(() => window.toolCalls.length)).toBe(1);
    const [message] = (await page.evaluate(() => window.messages)) as {
      role: string;
      content: { text: string }[];
    }[];
    expect(message!.role).toBe('user');
    expect(message!.content[0]!.text.split('\n')[0]).toBe('[svc] lunch choose choice=Pizza');
    const [call] = await page.evaluate(() => window.toolCalls);
    expect(call).toMatchObject({
      name: 'svc_tap',
      arguments: {
        screen_id: result.structuredContent.screen_id,
        event: { id: 'lunch', value: 'Pizza' },
        told_model: true,
      },
    });
    expect(await agent.answers(result.structuredContent.screen_id, 0)).toEqual([]);
    expect(await view.locator('html').getAttribute('data-scheme')).toBe('dark');
    mkdirSync(shots, { recursive: true });
    await page.locator('iframe').screenshot({ path: join(shots, 'in-chat-dark.png') });
    await page.close();
  });

  it("an in-chat tap is the thread's event row with via: mcp-app (doc1), and the phone shows it answered once", async () => {
    const page = await hostPage();
    const result = await showTool('choose@dessert "Dessert?" "Pasta bake"|Fruit');
    await page.evaluate(([h, r]) => window.openView(h as string, r, 'light', true), [html, result] as const);
    await page.frameLocator('iframe').getByRole('button', { name: 'Fruit' }).click();
    await expect.poll(() => page.evaluate(() => window.toolCalls.length)).toBe(1);
    const session = (await fetch(`${service.url}/functions/v1/svc-app/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'view@example.com', password: 'correct horse battery' }),
    }).then((r) => r.json())) as { access_token: string };
    const get = <T>(path: string) =>
      fetch(`${service.url}/functions/v1/svc-app${path}`, {
        headers: { authorization: `Bearer ${session.access_token}` },
      }).then((r) => r.json() as Promise<T>);
    const { agents } = await get<{ agents: { id: string }[] }>('/agents');
    const { messages } = await get<{
      messages: { kind: string; sender: string; body: string; meta: Record<string, unknown> }[];
    }>(`/agents/${agents[0]!.id}/messages`);
    const row = messages.at(-1)!;
    // doc1: body is the same [svc] line; meta holds id, preset, value, echo and via: mcp-app.
    expect(row).toMatchObject({ kind: 'tap', sender: 'person' });
    expect(row.body.split('\n')[0]).toBe('[svc] dessert choose choice=Fruit');
    expect(row.meta).toMatchObject({
      id: 'dessert',
      preset: 'choose',
      value: 'Fruit',
      echo: 'Fruit',
      via: 'mcp-app',
    });
    await page.close();

    // The person's phone draws the same screen answered, with its one echo.
    const phone = await browser.context.newPage();
    await phone.addInitScript((s) => localStorage.setItem('svc-app-session', JSON.stringify(s)), session);
    await phone.goto(`${service.url}/#/a/${agents[0]!.id}`);
    const screen = phone.locator('.svc-screen').last();
    await expect.poll(() => screen.locator('.svc-echo').textContent()).toBe('✓ Fruit');
    expect(await screen.getByRole('button', { name: 'Fruit' }).isDisabled()).toBe(true);
    const echoes = await phone
      .locator('.thread')
      .evaluate(
        (t) => [...t.querySelectorAll('p')].filter((p) => p.textContent?.trim() === '✓ Fruit').length,
      );
    expect(echoes).toBe(1);
    await phone.close();
  });

  it('when the host refuses the message, the tap is returned by svc_answers like a phone tap', async () => {
    const page = await hostPage();
    const result = await showTool('confirm "Send the report now?"');
    await page.evaluate(([h, r]) => window.openView(h as string, r, 'light', false), [html, result] as const);
    await page.frameLocator('iframe').getByRole('button', { name: 'Yes' }).click();
    await expect.poll(() => page.evaluate(() => window.toolCalls.length)).toBe(1);
    const [answer] = await agent.answers(result.structuredContent.screen_id);
    expect(answer).toMatchObject({ kind: 'tap', event: { id: 'n1', preset: 'confirm', value: true } });
    await page.locator('iframe').screenshot({ path: join(shots, 'in-chat-light.png') });
    await page.close();
  });

  it('without SVC_IMAGE_CDN: image prompt= draws a placeholder that says so, and fetches nothing', async () => {
    expect(html).not.toContain('<meta name="svc-image-cdn"');
    expect(html).toContain(`img-src data: blob: ${service.url}; connect-src 'none'`);
    const page = await hostPage();
    const fetched: string[] = [];
    page.on('request', (r) => {
      if (/^https?:/.test(r.url())) fetched.push(r.url());
    });
    const result = await showTool('image prompt="a red fox in snow"');
    await page.evaluate(([h, r]) => window.openView(h as string, r, 'light', true), [html, result] as const);
    const placeholder = page.frameLocator('iframe').getByRole('img', {
      name: 'Image not drawn here: a red fox in snow',
    });
    await expect.poll(() => placeholder.isVisible()).toBe(true);
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered words (CSS uppercases the note) are what a person reads.
    expect(await placeholder.innerText()).toMatch(/^image not drawn here\s+a red fox in snow$/i);
    expect(await page.frameLocator('iframe').locator('img').count()).toBe(0);
    expect(fetched).toEqual([]);
    await page.close();
  });

  it('shows the lines as text when a result carries no ops (an older server)', async () => {
    const page = await hostPage();
    const result = await showTool('choose@tea "Tea?" Green|Black');
    const { ops: _ops, ...older } = result.structuredContent as Record<string, unknown>;
    await page.evaluate(([h, r]) => window.openView(h as string, r, 'light', true), [
      html,
      { ...result, structuredContent: older },
    ] as const);
    const view = page.frameLocator('iframe');
    await expect.poll(() => view.locator('#screen').getAttribute('data-ready')).toBe('text');
    expect(await view.locator('#screen pre').textContent()).toBe('choose@tea "Tea?" Green|Black');
    expect(await view.getByRole('button').count()).toBe(0);
    await page.close();
  });

  it('falls back to window.openai when the bridge never answers', async () => {
    const result = await showTool('choose@drink "Drink?" Tea|Coffee');
    const page = await browser.context.newPage();
    const calls: unknown[] = [];
    await page.exposeFunction('openaiCallTool', async (name: string, args: Record<string, unknown>) => {
      calls.push({ name, args });
      return agent.client.callTool({ name, arguments: args });
    });
    await page.addInitScript((output) => {
      const w = window as unknown as Record<string, unknown>;
      w.followUps = [];
      w.openai = {
        toolOutput: output,
        theme: 'light',
        callTool: (name: string, args: unknown) =>
          (w.openaiCallTool as (n: string, a: unknown) => Promise<unknown>)(name, args),
        sendFollowUpMessage: async ({ prompt }: { prompt: string }) => {
          (w.followUps as string[]).push(prompt);
        },
      };
    }, result.structuredContent);
    // A real navigation, so the init script defines window.openai before the view's script runs.
    await page.route('http://chat.test/view', (route) =>
      route.fulfill({ contentType: 'text/html', body: html }),
    );
    await page.goto('http://chat.test/view');
    await page.getByRole('button', { name: 'Coffee' }).click({ timeout: 8_000 });
    await expect.poll(() => calls.length, { timeout: 8_000 }).toBe(1);
    expect(await page.evaluate(() => document.documentElement.dataset.host)).toBe('openai');
    const followUps = (await page.evaluate(
      () => (window as unknown as { followUps: string[] }).followUps,
    )) as string[];
    expect(followUps[0]!.split('\n')[0]).toBe('[svc] drink choose choice=Coffee');
    expect(calls[0]).toEqual({
      name: 'svc_tap',
      args: {
        screen_id: result.structuredContent.screen_id,
        event: { id: 'drink', value: 'Coffee' },
        told_model: true,
      },
    });
    expect(await agent.answers(result.structuredContent.screen_id, 0)).toEqual([]);
    await page.close();
  });
});
