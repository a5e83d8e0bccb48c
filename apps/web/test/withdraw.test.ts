// A screen its agent withdrew (issue 44, ADR 0279) on the phone: "Withdrawn" beside it and inert, live from the
// thread stream and after a reload, with or without a deadline; a tap sent anyway is refused. And a tap in the
// app names this device in its receipt (issue 40). Real service, real MCP client, real Chromium.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chromium, launchChromium } from './chromium.js';
import { connectMcpAgent, type McpAgent } from './mcp-agent.js';
import { pairInApp } from './pair-in-app.js';
import { startService } from './server.js';

let service: Awaited<ReturnType<typeof startService>>;
let browser: Chromium;
let page: Page;
let agent: McpAgent;

beforeAll(async () => {
  service = await startService();
  browser = await launchChromium();
  page = await browser.context.newPage();
});
afterAll(async () => {
  await agent?.close();
  await browser?.close();
  await service?.dispose();
});

/** The payload of a compact JWS, decoded. */
// A receipt's payload: format 2's proof carries it as JSON (ADR 0294), format 1 inside its compact JWS.
const payloadOf = (receipt: string) =>
  (receipt.startsWith('{')
    ? (JSON.parse(receipt) as { receipt: unknown }).receipt
    : JSON.parse(Buffer.from(receipt.split('.')[1]!, 'base64url').toString('utf8'))) as Record<
    string,
    unknown
  >;

describe('a withdrawn screen on the phone', () => {
  it('says "Withdrawn", takes no taps, and still says so after a reload', async () => {
    const token = await pairInApp(page, service.url, 'withdraw@example.com', 'Cook');
    agent = await connectMcpAgent(service.url, token);
    await page.getByRole('link', { name: 'Open the thread' }).click();

    // One screen with a deadline, one without: both are taken back.
    const timed = await agent.client.callTool({
      name: 'svc_show',
      arguments: { lines: 'choose@lunch "Lunch?" Soup|Salad', deadline: { in: '10m' } },
    });
    const plain = await agent.show('choose@drink "Drink?" Tea|Coffee');
    await expect.poll(() => page.locator('.svc-deadline').textContent()).toMatch(/^Time left: /);
    const tea = page.getByRole('button', { name: 'Tea' });
    await tea.waitFor();
    for (const screen_id of [(timed.structuredContent as { screen_id: string }).screen_id, plain.screen_id]) {
      const r = await agent.client.callTool({ name: 'svc_withdraw', arguments: { screen_id } });
      expect(r.structuredContent).toMatchObject({ screen_id, withdrawn: true, already: false });
    }
    const notes = page.locator('.svc-deadline');
    await expect.poll(() => notes.allTextContents()).toEqual(['Withdrawn', 'Withdrawn']);
    const coffee = page.locator('.svc-screen', { has: page.getByRole('button', { name: 'Coffee' }) });
    const salad = page.locator('.svc-screen', { has: page.getByRole('button', { name: 'Salad' }) });
    for (const screen of [coffee, salad]) {
      expect(await screen.evaluate((e) => (e as HTMLElement).inert)).toBe(true);
    }
    // A tap sent anyway (an old tab, a queued request) is refused with the reason.
    const app = `${service.url}/functions/v1/svc-app`;
    const signin = await fetch(`${app}/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'withdraw@example.com', password: 'correct horse battery' }),
    });
    const { access_token } = (await signin.json()) as { access_token: string };
    const threads = await agent.client.callTool({ name: 'svc_threads', arguments: {} });
    const agentId = (threads.structuredContent as { agents: { id: string }[] }).agents[0]!.id;
    const tapped = await fetch(`${app}/agents/${agentId}/taps`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${access_token}` },
      body: JSON.stringify({ screen_id: plain.screen_id, event: { id: 'drink', value: 'Tea' } }),
    });
    const refused = { status: tapped.status, body: await tapped.json() };
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body)).toContain('withdrawn by the agent');
    // After a reload the thread still says so, from the stored rows.
    await page.reload();
    await expect
      .poll(() => page.locator('.svc-deadline').allTextContents())
      .toEqual(['Withdrawn', 'Withdrawn']);
    expect(await agent.answers(undefined, 0)).toEqual([]);
  });

  it("names this device in a tap's receipt", async () => {
    const shown = await agent.show('choose@dessert "Dessert?" Cake|Fruit');
    await page.getByRole('button', { name: 'Cake' }).click();
    const [answer] = (await agent.answers(shown.screen_id)) as { receipt?: string }[];
    const device = await page.evaluate(() => localStorage.getItem('svc-device-id'));
    expect(device).toMatch(/^d-[0-9a-f]{24}$/);
    expect(payloadOf(answer!.receipt!).who).toMatchObject({ device });
  });
});
