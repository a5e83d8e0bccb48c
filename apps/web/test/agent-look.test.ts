// What doc2 promises a person sees of an agent, in real Chromium against the real service: the thread wears
// the agent's look while it is open (and an agent restyles itself with a theme line), the look picker in the
// agent's settings, the composer's `/` menu of the host's commands, and the agent's picture (avatar).
import { AGENT_COLOR_HEX, compilePalette } from '@screen-service/theme';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chromium, launchChromium } from './chromium.js';
import { connectMcpAgent, type McpAgent } from './mcp-agent.js';
import { startService } from './server.js';

let service: Awaited<ReturnType<typeof startService>>;
let browser: Chromium;
let page: Page;
let token: string;
let session: { access_token: string };
const clients: McpAgent[] = [];

interface AgentRow {
  id: string;
  handle: string;
  color: string;
  avatar: string | null;
  theme: Record<string, unknown>;
  commands: { name: string }[] | null;
}

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${service.url}/functions/v1/svc-app${path}`, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

async function connect(body: Record<string, unknown>, host?: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${service.url}/functions/v1/svc-connect`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(host ? { authorization: `Bearer ${host}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${String(body.action)}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** An agent paired as `kind` (an MCP app gets a real SDK client); returns its id and the connector token. */
async function agent(name: string, kind: 'mcp' | 'hostfw', ref: string) {
  const created = await api<{ agent: AgentRow; pairing: { code: string } }>('POST', '/agents', { name });
  const paired = await connect({
    action: 'pair',
    code: created.pairing.code,
    remote_ref: ref,
    kind,
    host_name: 'Box',
  });
  const host = paired.connector_token as string;
  const mcp = kind === 'mcp' ? await connectMcpAgent(service.url, host) : null;
  if (mcp) clients.push(mcp);
  return { id: created.agent.id, host, mcp };
}

/** The accent the page wears now (the palette variable on the document's `.svc-root`). */
const accentOf = (p: Page) =>
  p.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--svc-accent').trim());

/** The accent the theme package compiles for a look, in the light scheme the test runs in. */
const compiled = (look: Record<string, unknown>, handle: string) =>
  compilePalette(look, { handle }).light['--svc-accent'];

beforeAll(async () => {
  service = await startService();
  session = await api<{ access_token: string }>('POST', '/auth/signup', {
    email: 'looks@example.com',
    password: 'correct horse battery',
  });
  token = session.access_token;
  browser = await launchChromium({ viewport: { width: 390, height: 844 } });
  page = await browser.context.newPage();
  await page.addInitScript((s) => localStorage.setItem('svc-app-session', JSON.stringify(s)), session);
});

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await browser?.close();
  await service?.dispose();
});

describe("the thread wears the agent's look (doc2: the app wears it while the thread is open)", () => {
  it("wears the agent's saved look in its thread, the app's own elsewhere, and a theme line's change live", async () => {
    const { id, mcp } = await agent('Harbour', 'mcp', 'harbour');
    const at = new Date().toISOString();
    await api('PATCH', `/agents/${id}`, { theme: { preset: 'sunset', by: 'user', at } });
    const row = await api<AgentRow>('GET', `/agents/${id}`);
    await page.goto(`${service.url}/#/`);
    await expect.poll(() => page.locator('.agent-row').count()).toBe(1);
    const own = await accentOf(page);

    await page.goto(`${service.url}/#/a/${id}`);
    const sunset = compiled(row.theme, row.handle);
    await expect.poll(() => accentOf(page)).toBe(sunset);
    expect(sunset).not.toBe(own);

    // The agent restyles itself: the open thread changes at once, and the look is kept for the next visit.
    await mcp!.show('theme accent=#2e7d32\ntext Greener now');
    const green = compiled({ ...row.theme, accent: '#2e7d32' }, row.handle);
    await expect.poll(() => accentOf(page)).toBe(green);
    await expect.poll(async () => (await api<AgentRow>('GET', `/agents/${id}`)).theme.accent).toBe('#2e7d32');

    await page.getByRole('link', { name: 'Back' }).click();
    await expect.poll(() => accentOf(page)).toBe(own);
    await page.goto(`${service.url}/#/a/${id}`);
    await expect.poll(() => accentOf(page)).toBe(green);
  });
});

describe('the look picker (doc2: the person picks a look in the agent settings, by: user)', () => {
  it('previews a picked look at once, saves it as the person’s pick, and the thread wears it', async () => {
    const { id } = await agent('Quill', 'mcp', 'quill');
    const before = await api<AgentRow>('GET', `/agents/${id}`);
    await page.goto(`${service.url}/#/a/${id}/settings`);
    const look = page.getByLabel('Look');
    await expect.poll(() => look.count()).toBe(1);
    await expect.poll(() => accentOf(page)).toBe(compiled(before.theme, before.handle));
    const options = await look.locator('option').allTextContents();
    expect(options).toEqual(
      expect.arrayContaining(['Its own (from the name)', 'ocean', 'midnight', 'paper']),
    );

    await look.selectOption('ocean');
    await expect.poll(() => accentOf(page)).toBe(compiled({ preset: 'ocean' }, before.handle));
    // A preview only: nothing is saved before Save.
    expect((await api<AgentRow>('GET', `/agents/${id}`)).theme.preset).toBe(before.theme.preset);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('.ok').textContent()).toBe('Saved.');
    const saved = await api<AgentRow>('GET', `/agents/${id}`);
    expect(saved.theme).toMatchObject({ preset: 'ocean', by: 'user' });
    expect(Date.parse(String(saved.theme.at))).toBeGreaterThan(Date.now() - 60_000);

    await page.goto(`${service.url}/#/a/${id}`);
    await expect.poll(() => accentOf(page)).toBe(compiled(saved.theme, saved.handle));
    // "Its own" takes the pick back: the look seeded from the handle returns.
    await page.goto(`${service.url}/#/a/${id}/settings`);
    await page.getByLabel('Look').selectOption('');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await api<AgentRow>('GET', `/agents/${id}`)).theme.preset).toBeUndefined();
  });
});

describe("the composer's / menu (doc2 Commands entry)", () => {
  it("lists the host's commands as typed, a tap fills the composer, Send passes it bare; an MCP app has none", async () => {
    const { id, host } = await agent('Foreman', 'hostfw', 'foreman');
    await connect({ action: 'heartbeat' }, host);
    await connect(
      {
        action: 'commands',
        remote_ref: 'foreman',
        commands: [
          { name: '/Plan', description: 'Plan the week', args: '<days>' },
          { name: 'reset', description: 'Start over' },
          { name: 'not a name!', description: 'dropped by the cleaning rules' },
        ],
      },
      host,
    );
    await expect
      .poll(async () => (await api<AgentRow>('GET', `/agents/${id}`)).commands?.map((c) => c.name))
      .toEqual(['plan', 'reset']);
    await page.goto(`${service.url}/#/a/${id}`);
    const composer = page.locator('#composer');
    const menu = page.getByRole('listbox', { name: 'Commands' });
    await expect.poll(() => page.locator('.bar h1').textContent()).toBe('Foreman');
    await composer.fill('/');
    await expect.poll(() => menu.isVisible()).toBe(true);
    expect(await menu.getByRole('option').allTextContents()).toEqual([
      '/plan <days> — Plan the week',
      '/reset — Start over',
    ]);
    expect(await composer.getAttribute('aria-expanded')).toBe('true');
    await composer.fill('/p');
    await expect.poll(() => menu.getByRole('option').count()).toBe(1);
    await menu.getByRole('option', { name: /\/plan/ }).click();
    expect(await composer.inputValue()).toBe('/plan ');
    expect(await menu.isHidden()).toBe(true);
    await composer.pressSequentially('3');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect
      .poll(
        async () =>
          (await api<{ messages: { body: string }[] }>('GET', `/agents/${id}/messages`)).messages.at(-1)
            ?.body,
      )
      .toBe('/plan 3');
    // A command without arguments fills the composer with no trailing space.
    await composer.fill('/r');
    await menu.getByRole('option', { name: /\/reset/ }).click();
    expect(await composer.inputValue()).toBe('/reset');

    // An MCP app reports no commands: `/` shows nothing.
    const { id: plain } = await agent('Plain', 'mcp', 'plain');
    await page.goto(`${service.url}/#/a/${plain}`);
    await expect.poll(() => page.locator('.bar h1').textContent()).toBe('Plain');
    await page.locator('#composer').fill('/');
    expect(await page.getByRole('listbox', { name: 'Commands' }).isHidden()).toBe(true);
  });

  it('opens the menu for a `/` typed before the agent and its commands arrived', async () => {
    const { id, host } = await agent('Baker', 'hostfw', 'baker');
    await connect({ action: 'heartbeat' }, host);
    await connect({ action: 'commands', remote_ref: 'baker', commands: [{ name: 'bake' }] }, host);
    await expect
      .poll(async () => (await api<AgentRow>('GET', `/agents/${id}`)).commands?.map((c) => c.name))
      .toEqual(['bake']);
    // The agent's own read is held until the person has typed `/` (a page without a service worker: a
    // route does not see what one fetches).
    const bare = await launchChromium({ serviceWorkers: 'block' });
    try {
      const p = await bare.context.newPage();
      await p.addInitScript((s) => localStorage.setItem('svc-app-session', JSON.stringify(s)), session);
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let asked!: () => void;
      const reached = new Promise<void>((r) => (asked = r));
      await p.route(new RegExp(`/svc-app/agents/${id}$`), async (route) => {
        asked();
        await held;
        await route.continue();
      });
      await p.goto(`${service.url}/#/a/${id}`);
      await reached;
      const menu = p.getByRole('listbox', { name: 'Commands' });
      await p.locator('#composer').fill('/');
      expect(await menu.isHidden()).toBe(true);
      release();
      await expect.poll(() => menu.isVisible()).toBe(true);
      expect(await menu.getByRole('option').allTextContents()).toEqual(['/bake']);
    } finally {
      await bare.close();
    }
  });
});

describe("the agent's picture (doc2 avatar: null is the initial chip, svc the service's mark)", () => {
  it('shows the initial on the agent colour, or the service mark once picked in settings', async () => {
    const { id } = await agent('Zephyr', 'mcp', 'zephyr');
    const row = await api<AgentRow>('GET', `/agents/${id}`);
    expect(row.avatar).toBeNull();
    await page.goto(`${service.url}/#/`);
    const chip = page.locator(`.agent-row[data-agent="${id}"] .chip`);
    await expect.poll(() => chip.textContent()).toBe('Z');
    const hex = AGENT_COLOR_HEX[row.color as keyof typeof AGENT_COLOR_HEX];
    const rgb = `rgb(${[1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
    expect(await chip.evaluate((c) => getComputedStyle(c).backgroundColor)).toBe(rgb);

    await page.goto(`${service.url}/#/a/${id}/settings`);
    await page.getByLabel('The Screen Service mark').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('.ok').textContent()).toBe('Saved.');
    expect((await api<AgentRow>('GET', `/agents/${id}`)).avatar).toBe('svc');

    await page.goto(`${service.url}/#/`);
    const mark = chip.locator('img');
    await expect
      .poll(() => mark.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0))
      .toBe(true);
    expect(await mark.getAttribute('src')).toBe('icon.svg');
    expect(await chip.textContent()).toBe('');
    await page.goto(`${service.url}/#/a/${id}`);
    await expect.poll(() => page.locator('.bar .thread-head .chip img').count()).toBe(1);

    await page.goto(`${service.url}/#/a/${id}/settings`);
    await page.getByLabel('Its initial').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await api<AgentRow>('GET', `/agents/${id}`)).avatar).toBeNull();
    await page.goto(`${service.url}/#/`);
    await expect.poll(() => chip.textContent()).toBe('Z');
  });
});
