// An ask offered to a shared agent's holder (ADR 0280) on the phones: the holder answers the offered screen;
// the owner's thread says "Answered by <holder>" under the ask, live and after a reload, and the holder's says
// "Answered by you". Real service (the deadline's step moved on by its clock), real MCP client, real Chromium.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chromium, launchChromium } from './chromium.js';
import { connectMcpAgent, type McpAgent } from './mcp-agent.js';
import { screenshotDir } from './screenshot-dir.js';
import { startService } from './server.js';

let skew = 0;
let service: Awaited<ReturnType<typeof startService>>;
let ownerBrowser: Chromium;
let holderBrowser: Chromium;
let agent: McpAgent;

/** The service's store, for the one thing the test sets up behind the app: the grant (an MCP agent has no sandbox report to share it by invite). */
interface StoreSide {
  users: { findByEmail(email: string): Promise<{ id: string } | null> };
  shares: { createGrant(grant: Record<string, unknown>): Promise<unknown> };
}

beforeAll(async () => {
  service = await startService({}, { now: () => Date.now() + skew });
  ownerBrowser = await launchChromium({ viewport: { width: 390, height: 844 } });
  holderBrowser = await launchChromium();
});
afterAll(async () => {
  await agent?.close();
  await ownerBrowser?.close();
  await holderBrowser?.close();
  await service?.dispose();
});

async function signUp(page: Page, email: string) {
  await page.goto(service.url);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill('correct horse battery');
  await page.getByRole('button', { name: 'Create account' }).click();
}

describe('an ask a holder answered', () => {
  it('names the holder on the owner’s screen, live and after a reload, and "you" on the holder’s', async () => {
    const owner = await ownerBrowser.context.newPage();
    await signUp(owner, 'olga@example.com');
    await owner.getByRole('link', { name: '+ Add an agent' }).click();
    await owner.getByLabel(/Name it after/).fill('Cook');
    await owner.getByRole('button', { name: 'Get a pairing code' }).click();
    const code = await owner.locator('output.code').getAttribute('data-code');
    const res = await fetch(`${service.url}/functions/v1/svc-connect`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'pair', code, remote_ref: 'cook', kind: 'mcp', host_name: 'Laptop' }),
    });
    const token = ((await res.json()) as { connector_token: string }).connector_token;
    agent = await connectMcpAgent(service.url, token);
    await owner.getByRole('link', { name: 'Open the thread' }).click();
    const threads = await agent.client.callTool({ name: 'svc_threads', arguments: {} });
    const agentId = (threads.structuredContent as { agents: { id: string }[] }).agents[0]!.id;

    const holder = await holderBrowser.context.newPage();
    await signUp(holder, 'bea@example.com');
    await expect.poll(() => holder.getByRole('link', { name: '+ Add an agent' }).count()).toBe(1);
    const store = (service.services as unknown as { store: StoreSide }).store;
    const ownerId = (await store.users.findByEmail('olga@example.com'))!.id;
    const beaId = (await store.users.findByEmail('bea@example.com'))!.id;
    await store.shares.createGrant({
      id: 'grt_bea',
      agentId,
      ownerId,
      userId: beaId,
      role: 'user',
      theme: {},
      firstMessage: null,
      template: null,
      inviteId: null,
      pushMuted: false,
      sort: 0,
      sharedBy: 'Olga',
      grantedAt: Date.now() + skew,
    });

    const shown = await agent.client.callTool({
      name: 'svc_show',
      arguments: {
        lines: 'choose@lunch "Lunch?" Soup|Salad',
        deadline: { in: '10m', escalate: [{ at: '50%', do: 'offer', to: [beaId] }] },
      },
    });
    expect(shown.isError).toBeFalsy();
    await expect.poll(() => owner.locator('.svc-deadline').textContent()).toMatch(/^Time left: /);

    // Five minutes pass on the service's clock: the step offers the ask in Bea's thread of Cook.
    skew += 5 * 60_000;
    await holder.goto(`${service.url}/#/a/${agentId}`);
    const salad = holder.getByRole('button', { name: 'Salad' });
    await salad.waitFor({ timeout: 15_000 });
    await salad.click();
    await expect.poll(() => holder.locator('.svc-deadline').textContent()).toBe('Answered by you');

    // The owner's thread hears it live, and names her (no first name given: her email).
    const note = owner.locator('.svc-deadline');
    await expect.poll(() => note.textContent(), { timeout: 10_000 }).toBe('Answered by bea@example.com');
    await owner.screenshot({ path: join(screenshotDir, 'offer-answered-by-holder.png') });
    const [answer] = await agent.answers((shown.structuredContent as { screen_id: string }).screen_id);
    expect(answer).toMatchObject({ event: { value: 'Salad', decided_by: 'escalation', by: beaId } });

    // After a reload both threads still say so, from the stored rows.
    await owner.reload();
    await expect.poll(() => owner.locator('.svc-deadline').textContent()).toBe('Answered by bea@example.com');
    await holder.reload();
    await expect.poll(() => holder.locator('.svc-deadline').textContent()).toBe('Answered by you');
  });
});
