// doc3 Events, end to end: the person's changes in a live query view reach the agent through svc_answers
// (official MCP SDK client) in doc3's shapes: a ticked box is `{id, preset:"query", op:"row", table, key,
// values}` (already written: the view redraws), and an `as send` card hands at most 200 rows with `count`.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Chromium, launchChromium } from './chromium.js';
import { type Answer, connectMcpAgent, type McpAgent } from './mcp-agent.js';
import { startService } from './server.js';

let service: Awaited<ReturnType<typeof startService>>;
let browser: Chromium;
let page: Page;
let agent: McpAgent;

/** `expect.poll` with room for a loaded machine. */
function poll<T>(fn: () => T | Promise<T>) {
  return expect.poll(fn, { timeout: 15_000 });
}

/** The same wait outside a test (set-up). */
async function until(fn: () => Promise<boolean>) {
  await vi.waitFor(async () => expect(await fn()).toBe(true), { timeout: 15_000, interval: 100 });
}

/** Waits on svc_answers until an answer for `screenId` arrives (taps of other screens are kept for later). */
async function answerFor(screenId: string): Promise<Answer> {
  for (let i = 0; i < 6; i++) {
    const [first] = await agent.answers(screenId, 10);
    if (first) return first;
  }
  throw new Error(`no answer for ${screenId}`);
}

beforeAll(async () => {
  service = await startService();
  browser = await launchChromium();
  page = await browser.context.newPage();
  await page.goto(service.url);
  await page.getByLabel('Email').fill('events@example.com');
  await page.getByLabel(/^Password/).fill('correct horse battery');
  await page.getByRole('button', { name: 'Create account' }).click();
  await until(
    async () => (await page.locator('.agent-list').textContent())?.includes('No agents yet') ?? false,
  );
  await page.goto(`${service.url}/#/add`);
  await page.getByLabel(/Name it after/).fill('Keeper');
  await page.getByRole('button', { name: 'Get a pairing code' }).click();
  const code = await page.locator('output.code').getAttribute('data-code');
  const res = await fetch(`${service.url}/functions/v1/svc-connect`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      action: 'pair',
      code,
      remote_ref: 'keeper',
      kind: 'mcp',
      host_name: 'Test laptop',
    }),
  });
  agent = await connectMcpAgent(
    service.url,
    ((await res.json()) as { connector_token: string }).connector_token,
  );
  await page.getByRole('link', { name: 'Open the thread' }).click();
  await until(async () => (await page.locator('.thread-head').textContent())?.includes('Keeper') ?? false);
});

afterAll(async () => {
  await agent?.close().catch(() => {});
  await browser?.close();
  await service?.dispose();
});

describe('query events reach the agent (doc3 Events)', () => {
  it('a ticked box is written, redraws every view of the table, and is heard as a `row` event', async () => {
    const shown = await agent.show(
      [
        'table create Todo Task:text Done:bool',
        'put Todo milk Task=Milk Done=false',
        'put Todo bread Task=Bread Done=false',
        'query@todo Todo as list check=Done',
        'query Todo where=Done=true +count',
      ].join('\n'),
    );
    const screen = page.locator('.svc-screen').last();
    await poll(() => screen.locator('input[type=checkbox]').count()).toBe(2);
    await screen.locator('input[data-key="bread"]').check();
    const answer = await answerFor(shown.screen_id);
    expect(answer.kind).toBe('tap');
    expect(answer.event).toMatchObject({
      id: 'todo',
      preset: 'query',
      op: 'row',
      table: 'Todo',
      key: 'bread',
      values: { Done: true },
    });
    // Already written: the count view of the same screen redraws from the phone's table.
    await poll(() => screen.locator('.svc-table tbody').textContent()).toContain('1');
    await page.reload();
    await poll(() => page.locator('.svc-screen').last().locator('input[data-key="bread"]').isChecked()).toBe(
      true,
    );
  });

  it('an `as send` card hands at most 200 rows in `cols` order, with the count of rows matched; more is refused in place', async () => {
    const puts = Array.from({ length: 250 }, (_, i) => `put Runs r${i} Km=${i} Note=n${i}`);
    // Screens carry at most 200 rows a send and 50 puts a screen (doc3 Limits): fill through five screens.
    await agent.show('table create Runs Km:number Note:text');
    for (let i = 0; i < puts.length; i += 50) await agent.show(puts.slice(i, i + 50).join('\n'));
    // A send view asking for more than 200 rows says so in place of the card.
    const over = await agent.show('query@big Runs limit=500 as send');
    await poll(() => page.locator(`.svc-screen [data-id="big"]`).textContent()).toContain('over 200');
    expect(over.tap_ids).toContain('big');
    const shown = await agent.show('query@s Runs sort=Km cols=Note|Km limit=200 as send');
    const screen = page.locator('.svc-screen').last();
    const send = screen.getByRole('button', { name: 'Send' });
    await poll(() => send.isEnabled()).toBe(true);
    await send.click();
    const answer = await answerFor(shown.screen_id);
    const event = answer.event as { cols: { name: string }[] | string[]; rows: unknown[][]; count: number };
    expect(answer.event).toMatchObject({ id: 's', preset: 'query', op: 'query', table: 'Runs', count: 250 });
    expect(event.rows).toHaveLength(200);
    const names = event.cols.map((c) => (typeof c === 'string' ? c : c.name));
    expect(names).toEqual(['Note', 'Km']);
    expect(event.rows[0]).toEqual(['n0', 0]);
    expect(event.rows[199]).toEqual(['n199', 199]);
  });
});
