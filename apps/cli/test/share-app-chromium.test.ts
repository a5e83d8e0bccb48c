// Issue 38 item 4 in real Chromium: the owner shares from the agent's settings (make an invite, see who
// holds it, revoke); `svc share revoke` on the data folder closes the holder's open thread at once, as the
// app's Revoke does; an agent that cannot be shared says what to do.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  createHostClient,
  type RunningHost,
  runHost,
  writeHostState,
} from '@screen-service/connect-api/client';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { client, signUp, startTestServer, type TestServer } from '../../server/test/harness.js';
import { launchBrowser } from '../../web/test/chromium.js';
import { ECHO_SANDBOX } from '../src/cli/host.js';
import { runSvc } from './run-svc.js';

const PASSWORD = 'correct horse battery';
let t: TestServer;
let browser: Browser;
let host: RunningHost;
const stopHost = new AbortController();
let dir: string;

beforeAll(async () => {
  t = await startTestServer();
  browser = await launchBrowser();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-share-app-'));
});
afterAll(async () => {
  stopHost.abort();
  await host?.done.catch(() => {});
  await browser?.close();
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function person(email: string, create: boolean, at = `${t.base}/`): Promise<Page> {
  const context: BrowserContext = await browser.newContext({ viewport: { width: 420, height: 860 } });
  context.setDefaultTimeout(5_000);
  const page = await context.newPage();
  await page.goto(at);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByRole('button', { name: create ? 'Create account' : 'Sign in' }).click();
  return page;
}

async function makeInvite(owner: Page): Promise<string> {
  const link = owner.getByLabel(/^Invite link/);
  // A second invite must not read the first one's link still in the field: wait for a new one.
  const before = (await link.count()) > 0 ? await link.inputValue() : '';
  await owner.getByLabel('Their first name (optional)').fill('Cleo');
  await owner.getByRole('button', { name: 'Make an invite' }).click();
  await expect.poll(() => link.inputValue()).toMatch(/\/#\/invite\/svc_inv_/);
  await expect.poll(() => link.inputValue()).not.toBe(before);
  return link.inputValue();
}

it('shares from the settings, lists the holder, and both revokes close the open thread at once', async () => {
  const call = client(t.base);
  const owner = await signUp(call, 'olga@example.com');
  const created = (await call('POST', '/agents', { token: owner.access_token, body: { name: 'Echo' } })).body;
  const hostClient = createHostClient({ url: t.base });
  const paired = await hostClient.pair({ code: created.pairing.code, remote_ref: 'echo', host_name: 'box' });
  const statePath = path.join(dir, 'host.json');
  await writeHostState(statePath, {
    token: paired.connector_token!,
    connector_id: paired.connector.id,
    name: paired.connector.name,
    connect_url: hostClient.connectUrl,
  });
  host = await runHost({
    statePath,
    signal: stopHost.signal,
    sandbox: () => ECHO_SANDBOX,
    async handleTurn(turn, ctx) {
      await ctx.reply({ text: `echo: ${turn.rows.map((r) => r.text).join(' / ')}` });
    },
  });
  // A second agent whose host sends no sandbox report.
  const bare = (await call('POST', '/agents', { token: owner.access_token, body: { name: 'Bare' } })).body;
  await createHostClient({ url: t.base }).pair({
    code: bare.pairing.code,
    remote_ref: 'bare',
    host_name: 'box',
  });

  const olga = await person('olga@example.com', false);
  await expect.poll(() => olga.locator('.agent-list').textContent()).toContain('Echo');
  await olga.goto(`${t.base}/#/a/${created.agent.id}/settings`);
  const share = olga.getByRole('region', { name: 'Share' });
  await expect.poll(() => share.textContent()).toContain('Echo is client-safe: you can share it.');
  await expect.poll(() => share.textContent()).toContain('Nobody has Echo yet.');
  const link = await makeInvite(olga);

  const cleo = await person('cleo@example.com', true, link);
  await expect.poll(() => cleo.locator('main').textContent()).toContain('Hi Cleo!');
  await cleo.getByRole('button', { name: 'Accept' }).click();
  await cleo.getByLabel('Message', { exact: true }).fill('hello there');
  await cleo.getByLabel('Message', { exact: true }).press('Enter');
  await expect
    .poll(() => cleo.locator('.thread-view').textContent(), { timeout: 10_000 })
    .toContain('echo: hello there');
  // The owner's Share section lists the holder as soon as the claim lands.
  await expect.poll(() => share.textContent()).toContain('Cleo (cleo@example.com)');

  // `svc share revoke` is another process on the data folder: the open thread still closes at once.
  const revoked = await runSvc(
    ['share', 'revoke', 'echo', 'cleo@example.com', '--email', 'olga@example.com'],
    {
      SVC_DATA_DIR: t.dataDir,
      SVC_BASE_URL: t.base,
      LOG_LEVEL: 'silent',
    },
  );
  expect(revoked.code, revoked.stderr).toBe(0);
  await expect
    .poll(() => cleo.locator('.gone-share').textContent(), { timeout: 3_000 })
    .toBe('Echo is no longer shared with you');
  await expect.poll(() => share.textContent(), { timeout: 3_000 }).toContain('Nobody has Echo yet.');

  // Shared again, then revoked with the app's own button.
  const again = await makeInvite(olga);
  await cleo.goto(again);
  await cleo.getByRole('button', { name: 'Accept' }).click();
  await expect.poll(() => cleo.locator('.thread-view').textContent()).toContain("Hi! I'm Echo.");
  await expect.poll(() => share.textContent()).toContain('Cleo (cleo@example.com)');
  await olga.getByRole('button', { name: 'Revoke Cleo (cleo@example.com)' }).click();
  await expect
    .poll(() => cleo.locator('.gone-share').textContent(), { timeout: 3_000 })
    .toBe('Echo is no longer shared with you');
  await expect.poll(() => share.textContent()).toContain('Nobody has Echo yet.');
  // A new launch on the thread's address: the service's refusal names the agent, never its id.
  await cleo.reload();
  await expect
    .poll(() => cleo.locator('.gone-share').textContent())
    .toBe('Echo is no longer shared with you: its owner took it back.');

  // An agent that cannot be shared says why and, when asked for an invite, what to do.
  await olga.goto(`${t.base}/#/a/${bare.agent.id}/settings`);
  const bareShare = olga.getByRole('region', { name: 'Share' });
  await expect
    .poll(() => bareShare.textContent())
    .toContain('Bare cannot be shared yet. It needs a host that sends a sandbox report.');
  await olga.getByRole('button', { name: 'Make an invite' }).click();
  await expect
    .poll(() => bareShare.getByRole('alert').textContent())
    .toContain('`svc host run-echo` sends one');
}, 90_000);
