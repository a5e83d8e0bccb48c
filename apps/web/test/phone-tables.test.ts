// This device's copy of the tables in the app against the real service in Chromium (ADR 0250): screens' puts
// show from the copy across reloads, the space the copy takes shows in settings, a full disk shows in place of
// the view while the service keeps the rows, and removing an agent or signing out removes its copy.
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chromium, launchChromium } from './chromium.js';
import { connectMcpAgent, type McpAgent } from './mcp-agent.js';
import { startService } from './server.js';

let service: Awaited<ReturnType<typeof startService>>;
let browser: Chromium;
let page: Page;
const agents: McpAgent[] = [];

beforeAll(async () => {
  service = await startService();
  browser = await launchChromium();
  page = await browser.context.newPage();
  page.on('dialog', (d) => void d.accept());
});

afterAll(async () => {
  for (const a of agents) await a.close().catch(() => {});
  await browser?.close();
  await service?.dispose();
});

/** Adds an agent in the app, pairs an MCP client with its code and opens its thread; returns the agent id. */
async function addAgent(name: string): Promise<{ id: string; mcp: McpAgent }> {
  await page.goto(`${service.url}/#/add`);
  await page.getByLabel(/Name it after/).fill(name);
  await page.getByRole('button', { name: 'Get a pairing code' }).click();
  const code = await page.locator('output.code').getAttribute('data-code');
  const res = await fetch(`${service.url}/functions/v1/svc-connect`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ action: 'pair', code, remote_ref: name, kind: 'mcp', host_name: 'Test laptop' }),
  });
  const token = ((await res.json()) as { connector_token: string }).connector_token;
  const mcp = await connectMcpAgent(service.url, token);
  agents.push(mcp);
  await page.getByRole('link', { name: 'Open the thread' }).click();
  await poll(() => page.locator('.thread-head').textContent()).toContain(name);
  const id = /#\/a\/([^/]+)/.exec(page.url())![1]!;
  return { id, mcp };
}

/** Which agents have tables on this phone, asked of a fresh tables worker on a page without the app. */
async function agentsWithTables(): Promise<string[]> {
  await page.goto(`${service.url}/offline.html`);
  let result: { ok: boolean; value?: string[]; message?: string } = { ok: false };
  await poll(
    async () => {
      result = await page.evaluate(
        () =>
          new Promise((resolve) => {
            const worker = new Worker('/tables-worker.js', { type: 'module' });
            worker.onmessage = (e) => {
              worker.terminate();
              resolve(e.data);
            };
            worker.postMessage({ n: 1, request: { kind: 'agents' } });
          }),
      );
      return result.ok;
    },
    { timeout: 15_000 },
  ).toBe(true);
  return result.value!;
}

/** How a fresh tables worker started, given the compiled module first or not (on a page without the app). */
async function bootOf(withModule: boolean): Promise<unknown> {
  await page.goto(`${service.url}/offline.html`);
  const reply = await page.evaluate(async (withModule) => {
    const worker = new Worker('/tables-worker.js', { type: 'module' });
    if (withModule) worker.postMessage({ wasm: await WebAssembly.compileStreaming(fetch('/sqlite3.wasm')) });
    const answer = await new Promise<{ ok: boolean; value?: unknown }>((resolve) => {
      worker.onmessage = (e) => resolve(e.data);
      worker.postMessage({ n: 1, request: { kind: 'boot' } });
    });
    worker.terminate();
    return answer;
  }, withModule);
  return reply.ok ? reply.value : reply;
}

/** `expect.poll` with room for a loaded machine (the default second is too short with six test runs on two cores). */
function poll<T>(fn: () => T | Promise<T>, options: { timeout?: number } = {}) {
  return expect.poll(fn, { timeout: 15_000, ...options });
}

const rowsShown = (screen: number) =>
  page.locator('.svc-screen').nth(screen).locator('.svc-table tbody tr').count();

describe('phone tables in the app', () => {
  let first: { id: string; mcp: McpAgent };

  it("a screen's table lines show from the copy, across redraws and reloads; queries stay live", async () => {
    await page.goto(service.url);
    await page.getByLabel('Email').fill('tables@example.com');
    await page.getByLabel(/^Password/).fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await poll(() => page.locator('.agent-list').textContent()).toContain('No agents yet');
    first = await addAgent('Coach');
    await first.mcp.show(
      'table create Runs Km:number Note:text\nput Runs Km=5 Note=easy\nput Runs Km=8\nquery Runs',
    );
    await poll(() => rowsShown(0)).toBe(2);
    await page.reload();
    await poll(() => rowsShown(0)).toBe(2);
    await first.mcp.show('put Runs Km=12 Note=long\nquery Runs sum=Km +count');
    // The new put redraws the first screen's live query too.
    await poll(() => rowsShown(0)).toBe(3);
    await poll(() => page.locator('.svc-screen').nth(1).locator('.svc-table tbody').textContent()).toContain(
      '25',
    );
    await page.reload();
    await page.reload();
    await poll(() => rowsShown(0)).toBe(3);
  });

  it("compiles SQLite's WebAssembly once, on the page, and hands it to the worker", async () => {
    const fetched: string[] = [];
    const count = (r: Request) => {
      if (r.url().endsWith('/sqlite3.wasm')) fetched.push(r.url());
    };
    // Counts the page's own compiles (the worker's would not pass through the page's WebAssembly). One tab
    // at a time holds the tables, so the same tab reloads with the counter in place.
    await page.addInitScript(() => {
      const w = window as unknown as { __compiles: number };
      w.__compiles = 0;
      const original = WebAssembly.compileStreaming.bind(WebAssembly);
      WebAssembly.compileStreaming = (source) => {
        w.__compiles++;
        return original(source);
      };
    });
    browser.context.on('request', count);
    await page.reload();
    await poll(() => rowsShown(0)).toBe(3);
    browser.context.off('request', count);
    expect(await page.evaluate(() => (window as unknown as { __compiles: number }).__compiles)).toBe(1);
    expect(fetched).toHaveLength(1);
    // The worker uses a module it is given, and compiles its own when addressed without one.
    expect(await bootOf(true)).toMatchObject({ wasm: 'page' });
    expect(await bootOf(false)).toMatchObject({ wasm: 'worker' });
  });

  it("shows the space the agent's tables use in its settings", async () => {
    await page.goto(`${service.url}/#/a/${first.id}/settings`);
    await poll(() => page.locator('.tables-usage').textContent()).toMatch(
      /Copy on this device .*: 1 table, 3 rows, [\d.]+ KB\. (Kept until you remove the agent|The browser may clear it)/,
    );
    // The line says what the browser answered to navigator.storage.persist().
    const persisted = await page.evaluate(() => navigator.storage.persisted());
    expect(await page.locator('.tables-usage').getAttribute('data-persisted')).toBe(String(persisted));
  });

  it('a full disk shows in place of the view; the service keeps the rows and a reload with room shows them', async () => {
    await page.goto(`${service.url}/#/a/${first.id}`);
    await poll(() => rowsShown(0)).toBe(3);
    const cdp = await page.context().newCDPSession(page);
    const origin = new URL(service.url).origin;
    const { usage } = (await page.evaluate(() => navigator.storage.estimate())) as { usage: number };
    await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: usage + 4 * 1024 });
    // 18 lines of about 1,000 characters: under the tool server's 20,000-character screen, past the 4 KB left.
    const big = Array.from({ length: 18 }, (_, i) => `put Runs Km=${i} Note="${'x'.repeat(990)}"`);
    const shown = await first.mcp.show(`${big.join('\n')}\nquery Runs +count as stat y=Count`);
    // The service saved them (the truth): the agent is told they were saved, not refused.
    expect(shown.text).toMatch(/18 table lines saved/);
    const screen = page.locator(`.svc-screen`).nth(2);
    await poll(() => screen.textContent(), { timeout: 15_000 }).toMatch(/storage is full/);
    await cdp.send('Storage.overrideQuotaForOrigin', { origin });
    await page.reload();
    await poll(() => page.locator('.svc-screen').nth(2).textContent()).toContain('21');
    await poll(() => rowsShown(0)).toBe(21);
  });

  it("removing an agent removes its tables from the phone; signing out removes everyone's", async () => {
    const second = await addAgent('Cook');
    await second.mcp.show('table create Meals Name:text\nput Meals Name=soup\nquery Meals');
    await poll(() => rowsShown(0)).toBe(1);
    expect((await agentsWithTables()).sort()).toEqual([first.id, second.id].sort());
    await page.goto(`${service.url}/#/a/${first.id}/settings`);
    await page.getByRole('button', { name: 'Delete agent and thread' }).click();
    // The app goes to the list once this device's copy of the tables is removed too; the list itself may be
    // redrawn before that (the service's `agents` event).
    await page.waitForURL(/#\/$/);
    await poll(() => page.locator('.agent-list').textContent()).not.toContain('Coach');
    expect(await agentsWithTables()).toEqual([second.id]);
    await page.goto(service.url);
    await page.getByRole('button', { name: 'Sign out' }).click();
    // The app goes to #/signin only once sign-out finished (tables, kept answers and reads removed); the
    // sign-in form is drawn by any redraw once the session is forgotten, which may come before that.
    await page.waitForURL(/#\/signin$/);
    await page.getByLabel('Email').waitFor();
    expect(await agentsWithTables()).toEqual([]);
  });
});
