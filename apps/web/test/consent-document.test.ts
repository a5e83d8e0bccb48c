// A client that signs in by its Client ID Metadata Document (no registration, ADR 0264) in real Chromium: the
// consent page and the phone's approval view show the document's name and the host that publishes it; a
// registered client shows no such host.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, launchBrowser } from './chromium.js';
import { type Callback, registerClient, signUp, startCallback } from './oauth-client.js';
import { startService } from './server.js';

let service: Awaited<ReturnType<typeof startService>>;
let browser: Browser;
let callback: Callback;
let documents: Server;
let documentBase = '';
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  // The test setting that lets the service fetch a document from 127.0.0.1 (never on in production).
  service = await startService({ outboundLoopback: true });
  browser = await launchBrowser();
  callback = await startCallback();
  documents = createServer((req, res) => {
    const self = `${documentBase}${req.url}`;
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=60' });
    res.end(JSON.stringify({ client_id: self, client_name: 'Doc App', redirect_uris: [callback.uri] }));
  });
  await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
  documentBase = `http://127.0.0.1:${(documents.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await browser?.close();
  await callback?.close();
  documents?.closeAllConnections();
  await new Promise((resolve) => documents?.close(resolve));
  await service?.dispose();
});

async function newPage(options: BrowserContextOptions, session?: unknown): Promise<Page> {
  const context = await browser.newContext(options);
  contexts.push(context);
  if (session)
    await context.addInitScript((s) => localStorage.setItem('svc-app-session', s), JSON.stringify(session));
  return context.newPage();
}

/** The authorize URL a document client builds: its client_id is its document's URL. */
function documentAuthorizeUrl(clientId: string): string {
  const verifier = randomBytes(32).toString('base64url');
  const url = new URL(`${service.url}/functions/v1/svc-oauth/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: callback.uri,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    resource: `${service.url}/functions/v1/svc-mcp`,
    scope: 'svc',
    state: 'st',
  }).toString();
  return url.href;
}

describe('the consent page for a metadata-document client', () => {
  it("shows the document's name and the host that publishes it, on the computer and on the phone", async () => {
    const page = await newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(documentAuthorizeUrl(`${documentBase}/oauth/client.json`));
    await page.locator('#code').waitFor();
    expect(await page.locator('#consent-title').textContent()).toBe('Connect Doc App to Screen Service');
    const host = new URL(documentBase).host;
    expect(await page.locator('.client-host').textContent()).toBe(host);
    expect(await page.locator('.client-document').textContent()).toBe(
      `Name and details published by ${host}.`,
    );
    expect(await page.locator('.client-document').isVisible()).toBe(true);

    const requestId = new URL(page.url()).searchParams.get('request');
    const account = await signUp(service.url, 'doc-person@example.com');
    const phone = await newPage({ viewport: { width: 390, height: 844 }, isMobile: true }, account.session);
    await phone.goto(`${service.url}/#/approve/${requestId}`);
    await phone.locator('#approve-client').waitFor();
    expect(await phone.locator('#approve-client').textContent()).toBe('Doc App wants to send you screens');
    expect(await phone.locator('.client-host').textContent()).toBe(host);
  });

  it('a registered client names no publishing host', async () => {
    const client = await registerClient(service.url, 'Registered App', callback.uri);
    const page = await newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(client.authorizeUrl);
    await page.locator('#code').waitFor();
    expect(await page.locator('#consent-title').textContent()).toBe(
      'Connect Registered App to Screen Service',
    );
    expect(await page.locator('.client-host').count()).toBe(0);
  });
});
