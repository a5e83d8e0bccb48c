// A 2026-07-28 server (input_required multi round-trip requests) behind the relay, driven by the 2.x SDK
// client: the ask reaches the person (in real Chromium once), the relay retries the call with the answer and
// the server's requestState, and the client gets the completed result.
import fs from 'node:fs';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MRTR_SERVER, relayArgs, relayFiles, resultText } from './harness.js';
import { answerForm, questionOf, textOf } from './person.js';
import { pairedAgent, type Service, startService } from './service.js';

let service: Service;
let browser: Browser;
let paired: Awaited<ReturnType<typeof pairedAgent>>;
let files: ReturnType<typeof relayFiles>;
let client: Client;
let transport: StdioClientTransport;
const seen = new Set<string>();

beforeAll(async () => {
  service = await startService();
  paired = await pairedAgent(service.base, 'Table booker');
  files = relayFiles(paired.token);
  transport = new StdioClientTransport({
    command: process.execPath,
    args: relayArgs({
      mcpUrl: service.mcpUrl,
      tokenFile: files.tokenFile,
      server: [process.execPath, MRTR_SERVER],
    }),
    stderr: 'inherit',
  });
  // Pinned to the 2026-07-28 era: server/discover, the per-request _meta envelope, no initialize.
  client = new Client(
    { name: 'mrtr-test-client', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(transport);
  browser = await chromium.launch({
    // The global set-up found or installed it (config/chromium-setup.ts).
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
    timeout: 20_000,
  });
});
afterAll(async () => {
  await browser?.close();
  await client?.close().catch(() => undefined);
  await transport?.close().catch(() => undefined);
  await service?.stop();
  if (files) fs.rmSync(files.dir, { recursive: true, force: true });
});

it('the client speaks 2026-07-28 with the wrapped server through the relay', () => {
  expect(client.getProtocolEra()).toBe('modern');
  expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
});

it('the person answers in the web app; the server receives exactly that content and its own requestState', async () => {
  const context = await browser.newContext({ viewport: { width: 420, height: 860 } });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  await page.goto(`${service.base}/`);
  await page.getByLabel('Email').fill(paired.email);
  await page.getByLabel(/^Password/).fill(paired.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page
    .getByRole('link', { name: /Table booker/ })
    .first()
    .click();
  await expect.poll(() => page.locator('.thread-head').textContent()).toContain('Table booker');

  const call = client.callTool({ name: 'book_table', arguments: {} });
  const newest = () => page.locator('.svc-screen').last();
  await expect.poll(() => newest().textContent()).toContain('table-booker asks you for 2 answers');
  await newest().getByRole('button', { name: 'Answer' }).click();
  await page.getByLabel('Party size').fill('4');
  await page.getByLabel('Party size').press('Enter');
  await expect.poll(() => newest().textContent()).toContain('Seating');
  await newest().getByRole('button', { name: 'Terrace' }).click();
  await expect.poll(() => newest().textContent()).toContain('Send this to table-booker?');
  await newest().getByRole('button', { name: 'Send' }).click();

  const out = JSON.parse(resultText(await call));
  expect(out).toEqual({
    view: { kind: 'elicit', action: 'accept', content: { party: 4, seating: 'Terrace' } },
    state: 'round-1',
  });
  for (const s of await paired.person.screens()) seen.add(s.id);
  await context.close();
});

it('a party size outside 1-12 is refused on the phone with the reason, then the right one goes through', async () => {
  const call = client.callTool({ name: 'book_table', arguments: {} });
  const screens = await answerForm(paired.person, seen, { 'Party size': [40, 2], Seating: ['Inside'] });
  const again = screens.filter((s) => questionOf(s.lines).startsWith('Party size'));
  expect(again).toHaveLength(2);
  expect(await textOf(paired.person, again[1]!.id)).toContain('Party size must be at most 12');
  expect(JSON.parse(resultText(await call)).view).toEqual({
    kind: 'elicit',
    action: 'accept',
    content: { party: 2, seating: 'Inside' },
  });
});

it('Decline goes back to the server as decline', async () => {
  const call = client.callTool({ name: 'book_table', arguments: {} });
  const first = await paired.person.nextScreen(seen);
  await paired.person.tap(first.id, { id: 'ask', value: 'Decline' });
  expect(JSON.parse(resultText(await call)).view).toEqual({ kind: 'elicit', action: 'decline' });
});

it('a form asking for an API key is declined without a screen, and the person is told why', async () => {
  const before = (await paired.person.messages()).length;
  const out = JSON.parse(resultText(await client.callTool({ name: 'connect_account', arguments: {} })));
  expect(out.view).toEqual({ kind: 'elicit', action: 'decline' });
  const added = (await paired.person.messages()).slice(before);
  expect(added.filter((m) => m.screen)).toEqual([]);
  expect(added.map((m) => m.body).join('\n')).toMatch(
    /asked for api_key through a form.*never sent through forms.*URL mode/s,
  );
});
