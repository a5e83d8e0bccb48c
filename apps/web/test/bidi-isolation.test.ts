// Card and command texts come from a remote agent or a host (issue 46 item 6): the server strips direction
// overrides and ESC from them, and the app draws each in its own <bdi>, so a U+202E in a row stored before
// the stripping (or a right-to-left name) cannot reorder the app's own words around it. Real Chromium.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chromium, launchChromium } from './chromium.js';
import { startService } from './server.js';

let service: Awaited<ReturnType<typeof startService>>;
let browser: Chromium;
let page: Page;
let agentId: string;
let hostToken: string;

const RLO = '\u202e';
type Db = { prepare(s: string): { run(...a: unknown[]): void } };
const db = () => (service as unknown as { db: Db }).db;

beforeAll(async () => {
  service = await startService();
  browser = await launchChromium();
  page = await browser.context.newPage();
  await page.goto(service.url);
  await page.getByLabel('Email').fill('bidi@example.com');
  await page.getByLabel(/^Password/).fill('correct horse battery');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('link', { name: '+ Add an agent' }).click();
  await page.getByLabel(/Name it after/).fill('Bridge');
  await page.getByRole('button', { name: 'Get a pairing code' }).click();
  const code = await page.locator('output.code').getAttribute('data-code');
  const paired = await host({ action: 'pair', code, remote_ref: 'bridge', kind: 'hostfw', host_name: 'Box' });
  hostToken = paired.connector_token as string;
  agentId = (paired.agent as { id: string }).id;
});
afterAll(async () => {
  await browser?.close();
  await service?.dispose();
});

async function host(body: Record<string, unknown>, token?: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${service.url}/functions/v1/svc-connect`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Record<string, unknown>;
}

/** The x of the glyph at `offset` in the first text node under `selector` that holds `text`. */
function glyphX(p: Page, selector: string, text: string, offset = 0): Promise<number> {
  return p.evaluate(
    ([sel, t, o]) => {
      const root = document.querySelector(sel as string)!;
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const at = n.textContent!.indexOf(t as string);
        if (at < 0) continue;
        const r = document.createRange();
        r.setStart(n, at + (o as number));
        r.setEnd(n, at + (o as number) + 1);
        return r.getBoundingClientRect().x;
      }
      throw new Error(`no text ${t} in ${sel}`);
    },
    [selector, text, offset] as const,
  );
}

/** Whether `text` under `selector` is drawn left to right: its first glyph left of its last. */
async function leftToRight(p: Page, selector: string, text: string): Promise<boolean> {
  return (await glyphX(p, selector, text, 0)) < (await glyphX(p, selector, text, text.length - 1));
}

describe('card and command texts in the app', () => {
  it('the server strips U+202E and ESC from a card and a commands report', async () => {
    const card = await host(
      {
        action: 'card',
        remote_ref: 'bridge',
        card: {
          name: `${RLO}Weather\u001b[31m`,
          skills: [{ name: `${RLO}Forecast`, description: 'Says it' }],
        },
      },
      hostToken,
    );
    expect(card.card).toEqual({
      name: 'Weather[31m',
      skills: [{ name: 'Forecast', description: 'Says it' }],
    });
    const commands = await host(
      {
        action: 'commands',
        remote_ref: 'bridge',
        commands: [{ name: 'deploy', args: `${RLO}<env>`, description: 'Ship it\u001b]0;x\u0007' }],
      },
      hostToken,
    );
    expect(commands.commands).toEqual([{ name: 'deploy', args: '<env>', description: 'Ship it]0;x' }]);
  });

  it('a card stored with U+202E does not reorder the words after it', async () => {
    // A row written before the server stripped direction characters.
    db()
      .prepare('UPDATE agents SET card = ? WHERE id = ?')
      .run(
        JSON.stringify({
          name: `${RLO}Weather`,
          skills: [{ name: `${RLO}Forecast`, description: 'Says the weather for a city' }],
        }),
        agentId,
      );
    await page.goto(`${service.url}/#/a/${agentId}/settings`);
    await page.locator('.agent-skills li').waitFor();
    expect(await leftToRight(page, '.agent-skills li', 'Says the weather')).toBe(true);
    expect(await leftToRight(page, '.agent-card h3', 'Card:')).toBe(true);
  });

  it('a command whose args hold U+202E does not reorder the dash and description after them', async () => {
    db()
      .prepare('UPDATE agents SET commands = ?, commands_at = ? WHERE id = ?')
      .run(
        JSON.stringify([{ name: 'deploy', args: `${RLO}<env>`, description: 'Ship it to production' }]),
        Date.now(),
        agentId,
      );
    await page.goto(`${service.url}/#/a/${agentId}`);
    await page.getByRole('textbox', { name: 'Message' }).fill('/');
    await page.locator('#commands li').waitFor();
    expect(await leftToRight(page, '#commands li', 'Ship it to production')).toBe(true);
    // The app's dash stays between the args and the description, left of the description.
    expect(await glyphX(page, '#commands li', '—')).toBeLessThan(await glyphX(page, '#commands li', 'Ship'));
  });
});
