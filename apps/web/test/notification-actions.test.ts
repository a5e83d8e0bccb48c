// Answering from the notification in real Chromium (issue 39): the server's push (decrypted at a push service
// on 127.0.0.1) is handed to the service worker with the DevTools protocol (ServiceWorker.deliverPushMessage);
// the notification shows the screen's choices as actions (read back with registration.getNotifications());
// an action answers without opening the app and the notification reads "Sent: ..."; a failed send keeps the
// actions so a second tap retries; a screen answered elsewhere has its notification replaced quietly; a tap
// on the body opens that screen in view.

import {
  startTestPushService,
  type TestPushService,
  type TestSubscriber,
} from '@screen-service/push/testing';
import type { CDPSession, Page, Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chromium, launchChromium } from './chromium.js';
import { connectMcpAgent, type McpAgent } from './mcp-agent.js';
import { startService } from './server.js';

let service: Awaited<ReturnType<typeof startService>>;
let browser: Chromium;
let page: Page;
let cdp: CDPSession;
let session: { access_token: string };
let agentId: string;
let registrationId: string;
let pushService: TestPushService;
let phone: TestSubscriber;
let agent: McpAgent;

interface Shown {
  title: string;
  body: string;
  tag: string;
  actions: string[];
}

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${service.url}/functions/v1/svc-app${path}`, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(session ? { authorization: `Bearer ${session.access_token}` } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

const worker = (): Worker => {
  const w = browser.context.serviceWorkers().find((x) => x.url().startsWith(service.url));
  if (!w) throw new Error('the service worker is not running');
  return w;
};

const notifications = (): Promise<Shown[]> =>
  page.evaluate(async () => {
    const reg = await navigator.serviceWorker.ready;
    return (await reg.getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      actions: ((n as unknown as { actions?: { title: string }[] }).actions ?? []).map((a) => a.title),
    }));
  });

async function deliver(data: unknown) {
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: new URL(service.url).origin,
    registrationId,
    data: JSON.stringify(data),
  });
}

/** The next push the server sent the phone's subscription, as the push service decrypted it. */
async function nextPush(): Promise<Record<string, unknown>> {
  const seen = pushService.received.filter((r) => r.subscriber === phone.id).length;
  const all = await pushService.waitFor(pushService.received.length + 1, 10_000);
  const mine = all.filter((r) => r.subscriber === phone.id);
  expect(mine.length).toBeGreaterThan(seen);
  return mine[seen]!.payload as Record<string, unknown>;
}

/** The browser dispatches a click on the notification (DevTools cannot click a system notification). */
async function click(tag: string, action = '') {
  await worker().evaluate(
    async ([t, a]) => {
      const sw = self as unknown as ServiceWorkerGlobalScope;
      const [n] = await sw.registration.getNotifications({ tag: t });
      sw.dispatchEvent(new NotificationEvent('notificationclick', { notification: n!, action: a }));
    },
    [tag, action] as const,
  );
}

const blockPresence = () =>
  browser.context.route('**/svc-app/presence', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: '{"active":true}' }),
  );

/** Pushes the phone's subscription received so far, by body (what the push service decrypted). */
const received = () =>
  pushService.received
    .filter((r) => r.subscriber === phone.id)
    .map((r) => (r.payload as { body?: string }).body);

beforeAll(async () => {
  service = await startService({ vapid: { subject: 'mailto:ops@example.com' }, outboundLoopback: true });
  session = await api('POST', '/auth/signup', {
    email: 'tap@example.com',
    password: 'correct horse battery',
  });
  const created = await api<{ agent: { id: string }; pairing: { code: string } }>('POST', '/agents', {
    name: 'Juniper',
  });
  agentId = created.agent.id;
  const paired = await fetch(`${service.url}/functions/v1/svc-connect`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      action: 'pair',
      code: created.pairing.code,
      remote_ref: 'j',
      kind: 'mcp',
      host_name: 'Laptop',
    }),
  }).then((r) => r.json());
  agent = await connectMcpAgent(service.url, paired.connector_token);
  pushService = await startTestPushService();
  phone = pushService.subscriber();
  await api('PUT', '/push/subscriptions', { endpoint: phone.endpoint, keys: phone.keys, device: 'phone' });
  browser = await launchChromium();
  page = await browser.context.newPage();
  await page.addInitScript((s) => localStorage.setItem('svc-app-session', JSON.stringify(s)), session);
  cdp = await browser.context.newCDPSession(page);
  const registered = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => {
      const reg = e.registrations.find((r) => r.scopeURL.startsWith(service.url) && !r.isDeleted);
      if (reg) {
        registrationId = reg.registrationId;
        resolve(reg.registrationId);
      }
    });
  });
  await cdp.send('ServiceWorker.enable');
  // The app marks the person as in front of it (no device buzzes meanwhile): tests about other things keep
  // that mark from the server at the browser boundary; the presence test lifts this.
  await blockPresence();
  await browser.context.grantPermissions(['notifications'], { origin: service.url });
  await page.goto(`${service.url}/#/`);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  registrationId = await registered;
});

afterAll(async () => {
  await agent?.close();
  await browser?.close();
  await service?.dispose();
  await pushService?.close();
});

describe('a notification you can answer', () => {
  const tag = () => `thread-${agentId}`;

  it("shows the screen's choices as actions; an action answers without opening the app", async () => {
    // The grant reaches the worker asynchronously: wait until it can really show a notification of its own.
    await expect
      .poll(() =>
        worker().evaluate(async () => {
          const reg = (self as unknown as ServiceWorkerGlobalScope).registration;
          try {
            await reg.showNotification('probe', { tag: 'probe' });
          } catch {
            return false;
          }
          const shown = await reg.getNotifications({ tag: 'probe' });
          for (const n of shown) n.close();
          return shown.length > 0;
        }),
      )
      .toBe(true);
    const shown = await agent.show('confirm@ship "Ship it?" Ship|Wait');
    const push = await nextPush();
    expect(push).toMatchObject({ kind: 'message', screen_id: shown.screen_id, answer: expect.any(Object) });
    await deliver(push);
    await expect
      .poll(notifications)
      .toEqual([{ title: 'Juniper', body: 'Ship it?', tag: tag(), actions: ['Ship', 'Wait'] }]);
    const windows = browser.context.pages().length;
    await click(tag(), 'a0');
    await expect
      .poll(notifications)
      .toEqual([{ title: 'Juniper', body: 'Sent: Ship', tag: tag(), actions: [] }]);
    expect(browser.context.pages()).toHaveLength(windows);
    const answers = await agent.answers(shown.screen_id);
    expect(answers).toEqual([
      expect.objectContaining({ kind: 'tap', screen_id: shown.screen_id, via: 'notification' }),
    ]);
  });

  it('a failed send keeps the notification and its actions; a second tap retries', async () => {
    const shown = await agent.show('buttons@next "What next?" Continue|Stop');
    const push = await nextPush();
    // The first answer meets a server error (at the browser's network boundary), the second reaches the service.
    let calls = 0;
    await browser.context.route('**/push/answer', async (route) => {
      calls++;
      if (calls === 1) await route.fulfill({ status: 503, body: '' });
      else await route.continue();
    });
    try {
      await deliver(push);
      const asked = { title: 'Juniper', body: 'What next?', tag: tag(), actions: ['Continue', 'Stop'] };
      await expect.poll(notifications).toEqual([asked]);
      await click(tag(), 'a1');
      await expect.poll(() => calls).toBe(1);
      await expect.poll(notifications).toEqual([asked]);
      await click(tag(), 'a1');
      await expect.poll(notifications).toEqual([{ ...asked, body: 'Sent: Stop', actions: [] }]);
      expect(calls).toBe(2);
    } finally {
      await browser.context.unrouteAll();
    }
    expect((await agent.answers(shown.screen_id)).map((a) => a.event?.value)).toEqual(['Stop']);
  });

  it('answered in the app: the notification is replaced quietly, its actions gone', async () => {
    const shown = await agent.show('choose@lunch "Lunch?" Soup|Salad');
    await deliver(await nextPush());
    await expect
      .poll(notifications)
      .toEqual([{ title: 'Juniper', body: 'Lunch?', tag: tag(), actions: ['Soup', 'Salad'] }]);
    await api('POST', `/agents/${agentId}/taps`, {
      screen_id: shown.screen_id,
      event: { id: 'lunch', value: 'Salad' },
    });
    const stale = await nextPush();
    expect(stale).toMatchObject({ kind: 'stale', screen_id: shown.screen_id, tag: tag() });
    await deliver(stale);
    await expect
      .poll(notifications)
      .toEqual([{ title: 'Juniper', body: 'Answered in the app: Salad', tag: tag(), actions: [] }]);
  });

  it('a tap on the body opens the thread with that screen in view, ready to answer', async () => {
    const first = await agent.show('checkin mood "How are you?"');
    await deliver(await nextPush());
    // More screens after it, so the one asked about is not simply the newest.
    for (let i = 0; i < 6; i++) await agent.show(`text Filler ${i}\nchoose@f${i} "Pick ${i}?" A|B|C|D|E`);
    await expect
      .poll(notifications)
      .toEqual([{ title: 'Juniper', body: 'How are you?', tag: tag(), actions: [] }]);
    await click(tag());
    await expect.poll(() => new URL(page.url()).hash).toBe(`#/a/${agentId}?screen=${first.screen_id}`);
    await expect
      .poll(() =>
        page.evaluate((id) => {
          const screen = document.querySelector(`[data-screen="${id}"]`);
          const box = screen?.getBoundingClientRect();
          const inView = box !== undefined && box.bottom > 0 && box.top < window.innerHeight;
          return inView && screen!.contains(document.activeElement);
        }, first.screen_id),
      )
      .toBe(true);
    await expect.poll(notifications).toEqual([]);
  });
});

describe('attention in the app', () => {
  /** An agent of its own: its thread has not buzzed in the last seconds (no collapse window in the way). */
  async function newAgent(name: string): Promise<McpAgent> {
    const made = await api<{ agent: { id: string }; pairing: { code: string } }>('POST', '/agents', { name });
    const paired = await fetch(`${service.url}/functions/v1/svc-connect`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        action: 'pair',
        code: made.pairing.code,
        remote_ref: made.agent.id,
        kind: 'mcp',
        host_name: name,
      }),
    }).then((r) => r.json());
    return connectMcpAgent(service.url, paired.connector_token);
  }

  /** The person leaves the app on this device (the app's own marks would lapse in 2 minutes; this says it now). */
  async function leave() {
    const device = await page.evaluate(() => localStorage.getItem('svc-device-id'));
    await page.goto(`${service.url}/offline.html`);
    await api('PUT', '/presence', { active: false, device });
    await api('PUT', `/agents/${agentId}/presence`, { open: false, device });
  }

  it('no buzz while the app is in front of the person; buzzes again once they leave', async () => {
    const desk = await newAgent('Desk');
    await leave();
    await browser.context.unroute('**/svc-app/presence');
    const marked = page.waitForResponse((r) => r.url().endsWith('/svc-app/presence') && r.ok());
    await page.goto(`${service.url}/#/`);
    await marked;
    await desk.show('confirm@seen "Seen in the app?"');
    await blockPresence();
    await leave();
    const before = received().length;
    await desk.show('confirm@later "Asked after you left?"');
    await expect.poll(() => received().slice(before)).toEqual(['Asked after you left?']);
    await desk.close();
  });

  it('quiet hours set in the app hold a question; turned off, the next one buzzes', async () => {
    // An agent of its own: its thread has not buzzed in the last seconds (no collapse window in the way).
    const owl = await api<{ agent: { id: string }; pairing: { code: string } }>('POST', '/agents', {
      name: 'Night owl',
    });
    const owlPaired = await fetch(`${service.url}/functions/v1/svc-connect`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        action: 'pair',
        code: owl.pairing.code,
        remote_ref: 'owl',
        kind: 'mcp',
        host_name: 'Owl',
      }),
    }).then((r) => r.json());
    const night = await connectMcpAgent(service.url, owlPaired.connector_token);
    const me = await api<{ time_zone: string | null }>('GET', '/me');
    const at = (offsetMin: number) =>
      new Intl.DateTimeFormat('en-GB', {
        timeZone: me.time_zone ?? 'UTC',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }).format(Date.now() + offsetMin * 60_000);
    await page.goto(`${service.url}/#/notifications`);
    const saved = page.locator('#n-saved');
    await page.getByRole('switch', { name: 'Quiet hours' }).check();
    await page.getByLabel('From').fill(at(-60));
    await page.getByLabel('until').fill(at(60));
    await expect.poll(() => saved.textContent()).toBe('Saved.');
    await expect
      .poll(async () => (await api<{ settings: unknown }>('GET', '/push')).settings)
      .toEqual({ quiet_hours: { start: at(-60), end: at(60) }, allow_urgent: true, plain_per_hour: 1 });
    await page.goto(`${service.url}/offline.html`);
    const before = received().length;
    await night.show('confirm@night "Asked in quiet hours?"');
    await page.goto(`${service.url}/#/notifications`);
    await page.getByRole('switch', { name: 'Quiet hours' }).uncheck();
    await expect.poll(() => saved.textContent()).toBe('Saved.');
    await expect
      .poll(
        async () => (await api<{ settings: { quiet_hours: unknown } }>('GET', '/push')).settings.quiet_hours,
      )
      .toBeNull();
    await page.goto(`${service.url}/offline.html`);
    await night.show('confirm@day "Asked after quiet hours?"');
    await expect.poll(() => received().slice(before)).toEqual(['Asked after quiet hours?']);
    await night.close();
  });
});
