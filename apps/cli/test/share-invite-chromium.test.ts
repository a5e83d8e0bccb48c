import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  createHostClient,
  type RunningHost,
  runHost,
  writeHostState,
} from '@screen-service/connect-api/client';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { client, signUp, startTestServer, type TestServer } from '../../server/test/harness.js';
import { type Chromium, launchChromium } from '../../web/test/chromium.js';
import { runSvc } from './run-svc.js';

const SAFE = {
  terminal: 'off',
  files: 'off',
  reach: [],
  memory: 'off',
  runner: 'api',
  profile: 'own',
  extra_keys: 0,
};

let t: TestServer;
let browser: Chromium;
let page: Page;
let host: RunningHost;
const stopHost = new AbortController();
let dir: string;

beforeAll(async () => {
  t = await startTestServer();
  browser = await launchChromium();
  page = await browser.context.newPage();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-share-e2e-'));
});
afterAll(async () => {
  stopHost.abort();
  await host?.done.catch(() => {});
  await browser?.close();
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function svc(args: string[]) {
  return runSvc(['share', ...args], { SVC_DATA_DIR: t.dataDir, SVC_BASE_URL: t.base, LOG_LEVEL: 'silent' });
}

// Each `svc share` call is its own process: on a busy machine the whole flow takes longer than the default.
it('owner invites with the CLI; a new person claims it in the browser and talks to the agent', async () => {
  const call = client(t.base);
  const owner = await signUp(call, 'olga@example.com');
  const created = (await call('POST', '/agents', { token: owner.access_token, body: { name: 'Helper' } }))
    .body;
  const hostClient = createHostClient({ url: t.base });
  const paired = await hostClient.pair({
    code: created.pairing.code,
    remote_ref: 'helper',
    host_name: 'box',
  });
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
    sandbox: () => SAFE,
    async handleTurn(turn, ctx) {
      await ctx.reply({ text: `echo: ${turn.rows.map((r) => r.text).join(' / ')} [${turn.session}]` });
    },
  });

  const plan = await svc(['plan', '--email', 'olga@example.com']);
  expect(plan.code, plan.stderr).toBe(0);
  const answers = {
    ...JSON.parse(plan.stdout),
    title: 'Olga shares Helper',
    hello_helper: 'Welcome! Ask me anything.',
  };
  const sent = await svc(['send', '--email', 'olga@example.com', '--answers', JSON.stringify(answers)]);
  expect(sent.code, sent.stderr).toBe(0);
  const { link } = JSON.parse(sent.stdout) as { link: string };

  await page.goto(link);
  await page.getByLabel('Email').fill('cleo@example.com');
  await page.getByLabel(/^Password/).fill('correct horse battery');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect.poll(() => page.locator('main').textContent()).toContain('Olga shares Helper');
  await page.getByRole('button', { name: 'Accept' }).click();
  await expect.poll(() => page.locator('.thread-view').textContent()).toContain('Welcome! Ask me anything.');
  // The agent's name and who shares it head the page, in the top bar (issue 38: not again above the thread).
  expect(await page.locator('.thread-head').textContent()).toContain('shared by olga');

  await page.getByLabel('Message', { exact: true }).fill('hello there');
  await page.getByLabel('Message', { exact: true }).press('Enter');
  const me = (
    await call('POST', '/auth/signin', {
      body: { email: 'cleo@example.com', password: 'correct horse battery' },
    })
  ).body.user.id as string;
  await expect
    .poll(() => page.locator('.thread-view').textContent(), { timeout: 10_000 })
    .toContain(`echo: hello there [${created.agent.id}~${me}]`);

  // The list shows the shared agent with who shares it.
  await page.goto(`${t.base}/#/`);
  await expect.poll(() => page.locator('.agent-list').textContent()).toContain('shared by olga');

  // The owner revokes in the app's own API; the holder's open thread closes with the line, once.
  await page.goto(`${t.base}/#/a/${created.agent.id}`);
  await expect.poll(() => page.locator('.thread-view').textContent()).toContain('hello there');
  const revoked = await call('POST', '/shares/revoke', {
    token: owner.access_token,
    body: { agent_id: created.agent.id, user_id: me },
  });
  expect(revoked.status).toBe(200);
  await expect
    .poll(() => page.locator('.gone-share').textContent(), { timeout: 10_000 })
    .toBe('Helper is no longer shared with you');
  await page.goto(`${t.base}/#/`);
  await expect
    .poll(() => page.locator('.agent-list').textContent())
    .toContain('Helper is no longer shared with you');
  // A new launch forgets the line.
  await page.reload();
  await expect.poll(() => page.locator('.agent-list').textContent()).toContain('No agents yet');
}, 60_000);
