// Issue 38 item 5 in real Chromium against the real service, at phone size: what a new user tripped on
// (a code counting down after it was used, an idle app in red, "working…" beside a silent agent, the
// agent's name twice, "✓ Pasta bake" twice, two connections named "vm", literal **markdown**, a chart's
// unit under its x axis, checkboxes for Notifications and a switch on beside "Off", `image prompt=` as a
// placeholder with a CDN set) and what a messaging app is expected to have (list previews and unread
// counts, light/dark/device, an account page).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chromium, launchChromium } from './chromium.js';
import { connectMcpAgent, type McpAgent } from './mcp-agent.js';
import { meanLuminance, shoot } from './screenshot.js';
import { screenshotDir } from './screenshot-dir.js';
import { startService } from './server.js';

const PASSWORD = 'correct horse battery';
let skew = 0;
let service: Awaited<ReturnType<typeof startService>>;
let cdn: { origin: string; hits: string[]; server: Server };
let browser: Chromium;
let page: Page;
let session: { access_token: string; refresh_token: string };
const agents: McpAgent[] = [];

async function api<T>(
  method: string,
  path: string,
  body?: unknown,
  token = session.access_token,
): Promise<T> {
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

async function pair(code: string, host: string, kind = 'mcp', ref = host) {
  const res = await fetch(`${service.url}/functions/v1/svc-connect`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ action: 'pair', code, remote_ref: ref, kind, host_name: host }),
  });
  if (!res.ok) throw new Error(`pair: ${res.status} ${await res.text()}`);
  return (await res.json()) as { connector_token: string; connector: { id: string } };
}

/** A new agent paired as an MCP app (a real SDK client); returns its id and client. */
async function mcpAgent(
  name: string,
  host = 'Laptop',
): Promise<{ id: string; mcp: McpAgent; connector: string }> {
  const created = await api<{ agent: { id: string }; pairing: { code: string } }>('POST', '/agents', {
    name,
  });
  const paired = await pair(
    created.pairing.code,
    host,
    'mcp',
    name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
  );
  const mcp = await connectMcpAgent(service.url, paired.connector_token);
  agents.push(mcp);
  return { id: created.agent.id, mcp, connector: paired.connector.id };
}

/** The fake image CDN: any path answers a small PNG; every request is recorded. */
async function imageCdn(): Promise<typeof cdn> {
  const png = new PNG({ width: 320, height: 200 });
  png.data.fill(180);
  const body = PNG.sync.write(png);
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, server };
}

beforeAll(async () => {
  cdn = await imageCdn();
  service = await startService(
    { vapid: { subject: 'mailto:ops@example.com' }, imageCdn: `${cdn.origin}/img/{prompt}?w=480` },
    { now: () => Date.now() + skew, statusTickMs: 100 },
  );
  session = await api('POST', '/auth/signup', { email: 'sees@example.com', password: PASSWORD }, '');
  browser = await launchChromium({ viewport: { width: 390, height: 844 } });
  page = await browser.context.newPage();
  page.on('dialog', (d) => void d.accept());
  await page.addInitScript((s) => {
    if (!sessionStorage.getItem('signed-out')) localStorage.setItem('svc-app-session', JSON.stringify(s));
  }, session);
});

afterAll(async () => {
  for (const a of agents) await a.close().catch(() => {});
  await browser?.close();
  await service?.dispose();
  await new Promise((r) => cdn?.server.close(r));
});

describe('what a new user tripped on', () => {
  it('the Add agent page stops counting down and says it is paired once the code is used', async () => {
    await page.goto(`${service.url}/#/add`);
    await page.getByLabel(/Name it after/).fill('Editor');
    await page.getByRole('button', { name: 'Get a pairing code' }).click();
    const code = (await page.locator('output.code').getAttribute('data-code'))!;
    await expect
      .poll(() => page.locator('.code-card').textContent())
      .toMatch(/Works once, for \d+:\d\d more/);
    await pair(code, 'Studio');
    await expect
      .poll(() => page.locator('.code-card [role=status]').textContent(), { timeout: 15_000 })
      .toBe('Paired with Studio. The code is used up.');
    expect(await page.locator('output.code').count()).toBe(0);
    expect(await page.locator('.code-card').textContent()).not.toMatch(/Works once|more \(until/);
  });

  it('an idle MCP agent reads as idle, in a neutral look, not as an error', async () => {
    const { id, connector } = await mcpAgent('Scout');
    const db = new DatabaseSync(join(service.dataDir, 'svc.sqlite'));
    try {
      db.exec('PRAGMA busy_timeout = 2000');
      db.prepare('UPDATE connectors SET last_seen_at = ? WHERE id = ?').run(
        Date.now() - 3 * 60_000,
        connector,
      );
    } finally {
      db.close();
    }
    await page.goto(`${service.url}/#/a/${id}`);
    const status = page.locator('.thread-head .status');
    await expect.poll(() => status.textContent()).toBe('Idle · last call 3 min ago');
    // The status line redraws when the agent list refreshes: read both colours from the element on the page
    // at that moment (a detached one computes no style), until the dot has a colour to compare.
    const colours = () =>
      status.evaluate((s) => {
        const probe = document.createElement('span');
        probe.style.color = 'var(--svc-bad)';
        s.append(probe);
        const bad = getComputedStyle(probe).color;
        probe.remove();
        return { dot: getComputedStyle(s.querySelector('.dot')!).backgroundColor, bad };
      });
    let seen = { dot: '', bad: '' };
    await expect
      .poll(async () => {
        seen = await colours();
        return seen.dot !== '' && seen.bad !== '';
      })
      .toBe(true);
    expect(seen.dot).not.toBe(seen.bad);
    expect(await status.getAttribute('class')).toContain('status-idle');
  });

  it("shows the agent's name once, in the top bar with its status", async () => {
    const { id } = await mcpAgent('Juniper');
    await page.goto(`${service.url}/#/a/${id}`);
    await expect.poll(() => page.locator('.bar h1').textContent()).toBe('Juniper');
    expect(await page.locator('#app').getByText('Juniper', { exact: true }).count()).toBe(1);
    expect(await page.locator('.bar .thread-head .status').count()).toBe(1);
    expect(await page.locator('main .thread-head').count()).toBe(0);
  });

  it('shows "✓ Pasta bake" once after a tap, live and after a reload', async () => {
    const { id, mcp } = await mcpAgent('Cook');
    await page.goto(`${service.url}/#/a/${id}`);
    const shown = await mcp.show('choose@dinner "Dinner tonight?" "Pasta bake"|Soup|Salad');
    await page.getByRole('button', { name: 'Pasta bake' }).click();
    expect((await mcp.answers(shown.screen_id))[0]?.event).toMatchObject({ value: 'Pasta bake' });
    // The agent answers; once its line is on the page the tap's row has come and gone through the stream too.
    await mcp.say('Pasta bake it is.');
    await expect.poll(() => page.locator('.thread').textContent()).toContain('Pasta bake it is.');
    const echoes = () =>
      page
        .locator('.thread')
        .evaluate(
          (t) => [...t.querySelectorAll('p')].filter((p) => p.textContent?.trim() === '✓ Pasta bake').length,
        );
    expect(await echoes()).toBe(1);
    await page.reload();
    await expect.poll(() => page.locator('.thread').textContent()).toContain('Pasta bake it is.');
    expect(await echoes()).toBe(1);
  });

  it('tells two connections named "vm" apart', async () => {
    await mcpAgent('Builder', 'vm');
    await mcpAgent('Tester', 'vm');
    await page.goto(`${service.url}/#/connections`);
    await expect.poll(() => page.locator('.conn').count()).toBeGreaterThanOrEqual(2);
    const names = await page
      .locator('.conn .agent-name')
      .evaluateAll((ps) => ps.map((p) => p.firstChild?.textContent ?? ''));
    expect(names.filter((n) => n.startsWith('vm'))).toEqual(['vm (1)', 'vm (2)']);
    expect(new Set(names).size).toBe(names.length);
    const what = await page.locator('.conn', { hasText: 'vm (2)' }).locator('.conn-what').textContent();
    expect(what).toMatch(/^AI app \(MCP\) · paired /);
  });

  it("draws an agent's markdown instead of showing **Open** literally", async () => {
    const { id, mcp } = await mcpAgent('Planner');
    await page.goto(`${service.url}/#/a/${id}`);
    await mcp.say('Your list:\n- **Open** the shop\n- *Count* the till');
    const bubble = page.locator('.msg.theirs .bubble').last();
    await expect.poll(() => bubble.locator('strong').textContent()).toBe('Open');
    expect(await bubble.locator('li').count()).toBe(2);
    expect(await bubble.textContent()).not.toContain('**');
  });

  it("puts a chart's unit at the top of its y axis, not under the x axis", async () => {
    const { id, mcp } = await mcpAgent('Runner');
    await page.goto(`${service.url}/#/a/${id}`);
    await mcp.show('chart line Mon=3|Tue=5|Wed=4|Thu=6 unit=km "Runs"');
    const chart = page.locator('.svc-chart-box').last();
    await expect.poll(() => chart.count()).toBe(1);
    const box = await chart.evaluate((fig) => {
      const svg = fig.querySelector('svg')!.getBoundingClientRect();
      const unit = [...fig.querySelectorAll('*')].find(
        (e) => e.children.length === 0 && e.textContent === 'km',
      );
      const ticks = [...fig.querySelectorAll('svg text')].filter((t) => /^\d/.test(t.textContent ?? ''));
      const xLabels = [...fig.querySelectorAll('svg text')].filter((t) =>
        /^[A-Z][a-z]{2}$/.test(t.textContent ?? ''),
      );
      return {
        unit: unit ? unit.getBoundingClientRect() : null,
        svgTop: svg.top,
        svgBottom: svg.bottom,
        topTick: Math.min(...ticks.map((t) => t.getBoundingClientRect().top)),
        xLabelsTop: Math.min(...xLabels.map((t) => t.getBoundingClientRect().top)),
      };
    });
    expect(box.unit).not.toBeNull();
    // Inside the chart, above its highest y tick: it names the axis, far from the x labels.
    expect(box.unit!.top).toBeGreaterThanOrEqual(box.svgTop - 1);
    expect(box.unit!.bottom).toBeLessThanOrEqual(box.topTick + 1);
    expect(box.unit!.bottom).toBeLessThan(box.xLabelsTop);
  });

  it('draws `image prompt=` from the image CDN in the phone app, allowed by the page CSP', async () => {
    const { id, mcp } = await mcpAgent('Painter');
    const answer = await fetch(`${service.url}/`);
    expect(answer.headers.get('content-security-policy')).toContain(
      `img-src 'self' data: blob: https: ${cdn.origin}`,
    );
    const refused: string[] = [];
    page.on('console', (m) => m.text().includes('Content Security Policy') && refused.push(m.text()));
    await page.goto(`${service.url}/#/a/${id}`);
    await mcp.show('image prompt="a red fox in snow" "The fox"');
    const img = page.locator('.svc-figure img').last();
    await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(320);
    expect(await img.getAttribute('src')).toBe(`${cdn.origin}/img/a%20red%20fox%20in%20snow?w=480`);
    expect(cdn.hits).toContain('/img/a%20red%20fox%20in%20snow?w=480');
    expect(await page.locator('.svc-placeholder').count()).toBe(0);
    expect(refused).toEqual([]);
  });
});

describe('what a messaging app is expected to have', () => {
  it('the thread list shows the newest line and the unread count of each thread', async () => {
    const { id, mcp } = await mcpAgent('Pen pal');
    await mcp.say('First note');
    await mcp.show('confirm "Coffee at ten?"', 'Are you in for coffee tomorrow?');
    await page.goto(`${service.url}/#/`);
    const row = page.locator(`.agent-row[data-agent="${id}"]`);
    await expect.poll(() => row.locator('.badge').textContent()).toBe('2');
    expect(await row.locator('.preview-text').textContent()).toBe('Are you in for coffee tomorrow?');
    expect(await row.locator('.preview-when').textContent()).toBe('just now');
    await api('POST', `/agents/${id}/messages`, { text: 'Yes, see you there' });
    await expect.poll(() => row.locator('.preview-text').textContent()).toBe('You: Yes, see you there');
    await page.goto(`${service.url}/#/a/${id}`);
    await expect.poll(() => page.locator('.thread').textContent()).toContain('Yes, see you there');
    await page.goto(`${service.url}/#/`);
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.locator('.badge').count()).toBe(0);
    await shoot(page, page, join(screenshotDir, 'agents-phone.png'));
  });

  it('a Notifications settings page: switches in grouped rows, never on beside "Off" while subscribing hangs', async () => {
    await browser.context.grantPermissions(['notifications'], { origin: service.url });
    await page.addInitScript(() => {
      // A push service that never answers (a phone on a captive network).
      PushManager.prototype.subscribe = () => new Promise<PushSubscription>(() => {});
      PushManager.prototype.getSubscription = async () => null;
    });
    await page.goto(`${service.url}/#/notifications`);
    await page.reload();
    await expect.poll(() => page.locator('#n-state').getAttribute('data-state')).toBe('off');
    const device = page.getByRole('switch', { name: 'Notifications on this device' });
    const look = await device.evaluate((s) => {
      const list = s.closest('ul')!;
      const r = s.getBoundingClientRect();
      return {
        bullets: getComputedStyle(list).listStyleType,
        appearance: getComputedStyle(s).appearance,
        width: r.width,
        height: r.height,
      };
    });
    expect(look).toMatchObject({ bullets: 'none', appearance: 'none' });
    expect(look.width).toBeGreaterThanOrEqual(44);
    expect(look.height).toBeGreaterThanOrEqual(24);
    await shoot(page, page, join(screenshotDir, 'notifications-phone.png'));

    await device.click();
    await expect.poll(() => page.locator('#n-state').getAttribute('data-state')).toBe('pending');
    const pending = await device.evaluate((s: HTMLInputElement) => ({
      checked: s.checked,
      mixed: s.indeterminate,
      busy: s.getAttribute('aria-busy'),
    }));
    expect(pending).toEqual({ checked: false, mixed: true, busy: 'true' });
    expect(await page.locator('#n-state').textContent()).toMatch(/^Turning on/);
    await expect
      .poll(() => page.locator('#n-state').textContent(), { timeout: 20_000 })
      .toMatch(/did not finish in 10 s/);
    expect(await device.isChecked()).toBe(false);
    expect(await device.isEnabled()).toBe(true);
  });

  it('light, dark or the device: a choice kept on this device', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`${service.url}/#/account`);
    await expect.poll(() => page.locator('#account-email').textContent()).toBe('sees@example.com');
    const light = meanLuminance(await page.screenshot());
    await page.getByLabel('Dark', { exact: true }).check();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.scheme)).toBe('dark');
    const dark = await shoot(page, page, join(screenshotDir, 'account-dark.png'));
    expect(meanLuminance(dark)).toBeLessThan(light - 0.3);
    await page.reload();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.scheme)).toBe('dark');
    expect(await page.getByLabel('Dark', { exact: true }).isChecked()).toBe(true);
    // Device follows the phone's own setting.
    await page.getByLabel('Device', { exact: true }).check();
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(async () => meanLuminance(await page.screenshot())).toBeLessThan(light - 0.3);
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(async () => meanLuminance(await page.screenshot())).toBeGreaterThan(light - 0.05);
    await shoot(page, page, join(screenshotDir, 'account-light.png'));
  });

  it('an account page: the email, sign out everywhere, delete the account', async () => {
    const elsewhere = await api<{ access_token: string }>(
      'POST',
      '/auth/signin',
      { email: 'sees@example.com', password: PASSWORD },
      '',
    );
    await page.goto(`${service.url}/#/account`);
    await expect.poll(() => page.locator('#account-email').textContent()).toBe('sees@example.com');
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await expect.poll(() => page.getByLabel('Email').count()).toBe(1);
    const other = await fetch(`${service.url}/functions/v1/svc-app/me`, {
      headers: { authorization: `Bearer ${elsewhere.access_token}` },
    });
    expect(other.status).toBe(401);

    // Sign in again on the page, then delete the account: a wrong password is refused in place.
    await page.evaluate(() => sessionStorage.setItem('signed-out', '1'));
    await page.getByLabel('Email').fill('sees@example.com');
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.locator('.agent-list').count()).toBe(1);
    await page.goto(`${service.url}/#/account`);
    await page.getByLabel('Your password, to confirm').fill('not my password');
    await page.getByRole('button', { name: 'Delete account' }).click();
    await expect.poll(() => page.locator('[role=alert]').textContent()).toMatch(/password/i);
    await page.getByLabel('Your password, to confirm').fill(PASSWORD);
    await page.getByRole('button', { name: 'Delete account' }).click();
    await expect.poll(() => page.getByLabel('Email').count()).toBe(1);
    const again = await fetch(`${service.url}/functions/v1/svc-app/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'sees@example.com', password: PASSWORD }),
    });
    expect(again.status).toBe(401);
  });
});

describe('a silent host does not keep "working…" beside "Connected"', () => {
  it('ends the working row and tells the truth once the host falls silent, long before the row would lapse', async () => {
    // A fresh account (the one above was deleted), signed in on the page.
    session = await api('POST', '/auth/signup', { email: 'relay@example.com', password: PASSWORD }, '');
    await page.goto(`${service.url}/#/`);
    await page.evaluate((s) => {
      sessionStorage.setItem('signed-out', '1');
      localStorage.setItem('svc-app-session', JSON.stringify(s));
    }, session);
    const created = await api<{ agent: { id: string }; pairing: { code: string } }>('POST', '/agents', {
      name: 'Relay',
    });
    const { connector_token: host } = await pair(created.pairing.code, 'Bridge box', 'hostfw', 'relay');
    const connect = (path: string, body: unknown) =>
      fetch(`${service.url}/functions/v1/svc-connect${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${host}` },
        body: JSON.stringify(body),
      });
    await connect('', { action: 'heartbeat' });
    await page.goto(`${service.url}/#/a/${created.agent.id}`);
    await expect.poll(() => page.locator('.thread-head .status').textContent()).toBe('Connected');
    const sent = await api<{ id: string }>('POST', `/agents/${created.agent.id}/messages`, {
      text: 'still there?',
    });
    expect((await connect('/messages/turn', { agent_id: created.agent.id, rows: [sent.id] })).status).toBe(
      200,
    );
    await expect.poll(() => page.locator('.working').isVisible()).toBe(true);
    // The host goes quiet (its process died): two minutes pass on the service's clock, none on the phone's.
    skew += 2 * 60_000 + 1000;
    await expect.poll(() => page.locator('.thread-head .status').textContent()).toBe('Offline');
    await expect.poll(() => page.locator('.working').isHidden()).toBe(true);
  });
});
