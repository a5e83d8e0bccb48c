// axe-core over every view of the app in real Chromium, light and dark, against the real service: sign-in, the
// agent list, add agent, a thread with two screens of every component (some answered), agent settings,
// connections, notifications, agent access, shares, the playground, the consent page (phone and computer), approving
// an app in the app, and the in-chat view.
// Any violation of any rule axe runs by default (WCAG 2.0-2.2 A/AA and best practices) fails the test.
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AxeViolation, audit, describeViolations } from './axe.js';
import { type Chromium, launchChromium } from './chromium.js';
import { everyComponent, TABLE_LINES } from './every-component.js';
import { connectMcpAgent, type McpAgent } from './mcp-agent.js';
import { type Callback, registerClient, signUp, startCallback } from './oauth-client.js';
import { settled } from './screenshot.js';
import { startService } from './server.js';

let service: Awaited<ReturnType<typeof startService>>;
let browser: Chromium;
let callback: Callback;
let agent: McpAgent;
let agentId: string;
let session: unknown;
let screenHtml: string;
let showOutput: unknown;

beforeAll(async () => {
  service = await startService();
  callback = await startCallback();
  const person = await signUp(service.url, 'audit@example.com');
  session = person.session;
  const created = await person.call<{ agent: { id: string }; pairing: { code: string } }>('POST', '/agents', {
    name: 'Coach',
  });
  agentId = created.agent.id;
  const paired = await fetch(`${service.url}/functions/v1/svc-connect`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      action: 'pair',
      code: created.pairing.code,
      remote_ref: 'coach',
      kind: 'mcp',
      host_name: 'Laptop',
    }),
  });
  const { connector_token } = (await paired.json()) as { connector_token: string };
  agent = await connectMcpAgent(service.url, connector_token);
  await agent.say('Good morning! Two screens for you.');
  showOutput = await agent.show(`${TABLE_LINES}\n${everyComponent(service.url)}`, 'Your plan');
  await agent.show(everyComponent(service.url));
  await person.call('POST', '/agents', { name: 'Helper' });
  const resource = await agent.client.readResource({ uri: 'ui://svc/screen' });
  screenHtml = (resource.contents[0] as { text: string }).text;
  browser = await launchChromium({ viewport: { width: 390, height: 844 } });
}, 120_000);

afterAll(async () => {
  await agent?.close();
  await browser?.close();
  await callback?.close();
  await service?.dispose();
});

interface AuditedView {
  name: string;
  /** Opens the view on `page` and waits until it is drawn; returns the frame to audit (default: the page). */
  open(page: Page): Promise<Frame | undefined>;
}

async function signedIn(page: Page, hash: string): Promise<void> {
  await page.goto(`${service.url}/`);
  await page.evaluate((s) => localStorage.setItem('svc-app-session', s), JSON.stringify(session));
  await page.goto(`${service.url}/${hash}`);
}

const VIEWS: AuditedView[] = [
  {
    name: 'sign-in',
    async open(page) {
      await page.goto(`${service.url}/`);
      await page.evaluate(() => localStorage.clear());
      await page.reload();
      await page.getByLabel('Email').waitFor();
      return undefined;
    },
  },
  {
    name: 'agent list',
    async open(page) {
      await signedIn(page, '#/');
      await page.locator('.agent-row').nth(1).waitFor();
      return undefined;
    },
  },
  {
    name: 'add agent, then its pairing code',
    async open(page) {
      await signedIn(page, '#/add');
      await page.getByLabel(/Name it after/).waitFor();
      await page.getByLabel(/Name it after/).fill('Cursor');
      await page.getByRole('button', { name: 'Get a pairing code' }).click();
      await page.locator('output.code').waitFor();
      return undefined;
    },
  },
  {
    name: 'thread with two screens of every component, some answered',
    async open(page) {
      await signedIn(page, `#/a/${agentId}`);
      await page.locator('.thread .svc-screen').nth(1).waitFor();
      await page.locator('.svc-query .svc-table').first().waitFor();
      const first = page.locator('.thread .svc-screen').first();
      if ((await first.locator('[data-answered]').count()) === 0) {
        await first.getByRole('button', { name: 'Pizza' }).click();
        await first.getByRole('button', { name: /Stretch/ }).click();
        await first.getByRole('button', { name: /Breathe in/ }).click();
        await first.locator('[data-id="lunch"] .svc-echo').waitFor();
      }
      return undefined;
    },
  },
  {
    name: 'agent settings',
    async open(page) {
      await signedIn(page, `#/a/${agentId}/settings`);
      await page.getByLabel('Name', { exact: true }).waitFor();
      await page.locator('.tables-usage[data-persisted]').waitFor();
      await page.locator('.conn-list').first().waitFor();
      return undefined;
    },
  },
  {
    name: 'connections',
    async open(page) {
      await signedIn(page, '#/connections');
      await page.locator('.conn').first().waitFor();
      return undefined;
    },
  },
  {
    name: 'notifications',
    async open(page) {
      await signedIn(page, '#/notifications');
      await page.locator('#n-state[data-state]').waitFor();
      await page.locator('[data-agent]').first().waitFor();
      return undefined;
    },
  },
  {
    name: 'account',
    async open(page) {
      await signedIn(page, '#/account');
      await page.locator('#account-email').getByText('@').waitFor();
      return undefined;
    },
  },
  {
    name: 'agent access',
    async open(page) {
      await signedIn(page, '#/access');
      await page.locator('.token-list .empty, .token-list .conn').first().waitFor();
      return undefined;
    },
  },
  {
    name: 'shared agents',
    async open(page) {
      await signedIn(page, '#/shares');
      await page.locator('.agent-list .empty, .agent-list .grant-row').first().waitFor();
      return undefined;
    },
  },
  {
    name: 'playground with every component',
    async open(page) {
      await page.goto(`${service.url}/playground.html`);
      await page
        .getByRole('textbox', { name: 'Screen Lines' })
        .fill(`${TABLE_LINES}\n${everyComponent(service.url)}`);
      await page.locator('.pg-stage .svc-query .svc-table').waitFor();
      return undefined;
    },
  },
  {
    name: 'consent page on a phone',
    async open(page) {
      const client = await registerClient(service.url, 'Claude', callback.uri);
      await page.goto(client.authorizeUrl);
      await page.locator('#consent-title').waitFor();
      await page.locator('#open-app').waitFor();
      return undefined;
    },
  },
  {
    name: 'consent page on a computer',
    async open(page) {
      await page.setViewportSize({ width: 1280, height: 800 });
      const client = await registerClient(service.url, 'Claude', callback.uri);
      await page.goto(client.authorizeUrl);
      await page.locator('#consent-title').waitFor();
      await page.locator('.qr svg').waitFor();
      return undefined;
    },
  },
  {
    name: 'approving an app in the app',
    async open(page) {
      const client = await registerClient(service.url, 'Cursor', callback.uri);
      await page.goto(client.authorizeUrl);
      await page.locator('#consent-title').waitFor();
      const request = new URL(page.url()).searchParams.get('request')!;
      await signedIn(page, `#/approve/${request}`);
      await page.getByRole('button', { name: 'Allow' }).waitFor();
      return undefined;
    },
  },
  {
    name: 'in-chat view with every component',
    async open(page) {
      await page.addInitScript((output) => {
        (window as unknown as { openai: unknown }).openai = {
          toolOutput: output,
          theme: matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light',
          callTool: async () => ({}),
          sendFollowUpMessage: async () => {},
        };
      }, showOutput);
      await page.route('http://chat.test/view', (route) =>
        route.fulfill({ contentType: 'text/html', body: screenHtml }),
      );
      await page.goto('http://chat.test/view');
      await page.locator('#screen[data-ready="true"]').waitFor({ timeout: 10_000 });
      return undefined;
    },
  },
];

async function auditAll(scheme: 'light' | 'dark'): Promise<Record<string, string[]>> {
  const found: Record<string, string[]> = {};
  let total = 0;
  for (const view of VIEWS) {
    const page = await browser.context.newPage();
    await page.emulateMedia({ colorScheme: scheme });
    try {
      const frame = await view.open(page);
      await settled(page);
      const violations: AxeViolation[] = await audit(frame ?? page);
      const lines = describeViolations(violations);
      total += lines.length;
      if (lines.length > 0) found[view.name] = lines;
    } finally {
      await page.close();
    }
  }
  console.log(`axe-core, ${scheme}: ${total} violating nodes over ${VIEWS.length} views`);
  return found;
}

describe('every view passes axe-core', () => {
  it('in light', async () => {
    expect(await auditAll('light')).toEqual({});
  }, 180_000);

  it('in dark', async () => {
    expect(await auditAll('dark')).toEqual({});
  }, 180_000);
});
