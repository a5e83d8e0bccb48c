// What axe-core cannot see, measured in real Chromium against the real service (issue 38 item 8): where the
// keyboard focus goes after answers and view changes, the skip link and the headings per screen, what the
// live line says, contrast and size numbers, the agent list's layout shift, and the installable icons.
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chromium, launchChromium } from './chromium.js';
import { connectMcpAgent, type McpAgent } from './mcp-agent.js';
import { signUp } from './oauth-client.js';
import { settled } from './screenshot.js';
import { startService } from './server.js';

let service: Awaited<ReturnType<typeof startService>>;
let browser: Chromium;
let agent: McpAgent;
let agentId: string;
let session: unknown;

beforeAll(async () => {
  service = await startService();
  const person = await signUp(service.url, 'keys@example.com');
  session = person.session;
  const created = await person.call<{ agent: { id: string }; pairing: { code: string } }>('POST', '/agents', {
    name: 'Coach',
  });
  agentId = created.agent.id;
  // Several agents, as a person who uses a few apps has: the list is tall enough for a jump to show.
  for (const name of ['Helper', 'Cursor', 'Weather', 'Recipes', 'Runs'])
    await person.call('POST', '/agents', { name });
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
  agent = await connectMcpAgent(
    service.url,
    ((await paired.json()) as { connector_token: string }).connector_token,
  );
  browser = await launchChromium({ viewport: { width: 390, height: 844 } });
}, 60_000);

afterAll(async () => {
  await agent?.close();
  await browser?.close();
  await service?.dispose();
});

/** A fresh page, signed in before the app's script runs. */
async function signedInPage(): Promise<Page> {
  const page = await browser.context.newPage();
  await page.addInitScript((s) => localStorage.setItem('svc-app-session', s), JSON.stringify(session));
  return page;
}

/** What has the keyboard focus: its tag, class, role and text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return {
      tag: el?.tagName.toLowerCase() ?? '',
      cls: typeof el?.className === 'string' ? el.className : '',
      role: el?.getAttribute('role') ?? '',
      text: (el?.textContent ?? '').trim(),
      component: el?.closest<HTMLElement>('[data-id]')?.dataset.id ?? '',
    };
  });

/** WCAG contrast of two computed CSS colours (`rgb(r, g, b)`). */
function contrast(a: string, b: string): number {
  const lum = (css: string) => {
    const [r, g, bl] = (css.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe('the keyboard focus never falls to the page body', () => {
  it('lands on the new view’s heading when a link is followed', async () => {
    const page = await signedInPage();
    await page.goto(`${service.url}/#/`);
    await page.locator(`a[data-agent="${agentId}"]`).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toMatchObject({ tag: 'h1' });
    await page.getByRole('link', { name: 'Agent settings' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toMatchObject({ tag: 'h1', text: 'Agent settings' });
    await page.close();
  });

  it('after each answer it is on what was answered, also once the tap came back from the service', async () => {
    const page = await signedInPage();
    await page.goto(`${service.url}/#/a/${agentId}`);
    const shown = await agent.show(
      [
        'choose@lunch "Lunch?" Soup|Salad',
        'checklist@pack "Pack" Keys|Wallet',
        'ask@name "Your name?"',
        'form@visit "Visit" day:date',
        'timer@tea 1m Tea',
        'deck@cards "One"|"Two"',
      ].join('\n'),
    );
    const screen = page.locator(`.svc-screen[data-screen="${shown.screen_id}"]`);
    await screen.waitFor();
    const steps: [string, () => Promise<void>][] = [
      ['lunch', () => screen.getByRole('button', { name: 'Salad' }).press('Enter')],
      [
        'pack',
        async () => {
          await screen.getByRole('checkbox', { name: 'Keys' }).press('Space');
          await screen.locator('[data-id="pack"]').getByRole('button', { name: 'Done' }).press('Enter');
        },
      ],
      [
        'name',
        () =>
          screen
            .getByRole('textbox', { name: 'Your name?' })
            .fill('Ana')
            .then(() => page.keyboard.press('Enter')),
      ],
      [
        'visit',
        async () => {
          await screen.getByLabel('Day').fill('2026-11-28');
          await screen.locator('[data-id="visit"]').getByRole('button', { name: 'Send' }).press('Enter');
        },
      ],
      [
        'cards',
        async () => {
          await screen.getByRole('button', { name: /2 cards/ }).press('Enter');
          await page.keyboard.press('Enter');
          await page.keyboard.press('Enter');
        },
      ],
    ];
    for (const [id, act] of steps) {
      await act();
      await expect
        .poll(() => focused(page), { message: id })
        .toMatchObject({ cls: 'svc-echo', component: id });
    }
    // The focus moves as each answer is drawn on the phone, before it reached the service; svc_answers
    // returns what arrived so far: read until all five did.
    const answers: Awaited<ReturnType<McpAgent['answers']>> = [];
    await expect
      .poll(async () => answers.push(...(await agent.answers(shown.screen_id, 1))), { timeout: 15_000 })
      .toBeGreaterThanOrEqual(5);
    const last = Object.fromEntries(answers.map((a) => [a.event?.id, a.event?.value]));
    expect(last).toEqual({
      lunch: 'Salad',
      pack: ['Keys'],
      name: 'Ana',
      visit: { day: '2026-11-28' },
      cards: 2,
    });
    // The taps came back over the stream (each shown by its screen's own echo, not again as a row, issue 38)
    // and a later line of the agent's was drawn after them: the focus stayed on the last echo.
    await agent.say('All noted, thank you.');
    await page.locator('.thread').getByText('All noted, thank you.').waitFor();
    expect(await focused(page)).toMatchObject({ cls: 'svc-echo', component: 'cards' });
    // Opening the timer from its pill: the pill disappears, the focus goes to the running clock.
    await screen.getByRole('button', { name: /Tea · 1:00/ }).press('Enter');
    expect(await focused(page)).toMatchObject({ role: 'timer', component: 'tea' });
    await page.close();
  });

  it('the composer’s photo button shows a focus ring when its file input has the keyboard focus', async () => {
    const page = await signedInPage();
    await page.goto(`${service.url}/#/a/${agentId}`);
    await page.getByLabel('Message', { exact: true }).focus();
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('attach');
    const ring = await page.locator('label.attach').evaluate((l) => {
      const style = getComputedStyle(l);
      return `${style.outlineStyle} ${style.outlineWidth}`;
    });
    expect(ring).toBe('solid 3px');
    await page.close();
  });

  it('sending a typed message with the Send button leaves the focus in the message box', async () => {
    const page = await signedInPage();
    await page.goto(`${service.url}/#/a/${agentId}`);
    await page.getByLabel('Message', { exact: true }).fill('On my way');
    await page.getByRole('button', { name: 'Send', exact: true }).last().press('Enter');
    await expect.poll(() => focused(page)).toMatchObject({ tag: 'textarea' });
    await page.close();
  });
});

describe('finding the newest screen', () => {
  it('the skip link is the first Tab stop and takes the focus to the newest screen’s heading', async () => {
    await agent.show('choose "Coffee or tea?" Coffee|Tea', 'One more question');
    const page = await signedInPage();
    await page.goto(`${service.url}/#/a/${agentId}`);
    await page.locator('.thread .svc-screen').first().waitFor();
    const screens = await page.locator('.thread .svc-screen').count();
    expect(await page.locator('.thread .svc-screen h2.screen-heading').count()).toBe(screens);
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ tag: 'a', text: 'Skip to the newest screen' });
    expect(
      await page.locator('.skip-link').evaluate((a) => a.getBoundingClientRect().height),
    ).toBeGreaterThanOrEqual(44);
    await page.keyboard.press('Enter');
    expect(await focused(page)).toMatchObject({ tag: 'h2', text: 'Coach: One more question' });
    expect(page.url()).toBe(`${service.url}/#/a/${agentId}`);
    await page.close();
  });
});

describe('the live line says new messages only', () => {
  it('is quiet about the thread it opens with, then says each arriving message once', async () => {
    const page = await signedInPage();
    await page.goto(`${service.url}/#/a/${agentId}`);
    await page.locator('.thread .svc-screen').first().waitFor();
    const news = page.locator('.thread-news');
    expect(await news.textContent()).toBe('');
    // Nothing that ticks sits in a live region: not the list, not a running timer's clock.
    expect(await page.locator('.thread').getAttribute('aria-live')).toBeNull();
    await agent.say('Rain at four');
    await expect.poll(() => news.textContent()).toBe('Coach: Rain at four');
    await agent.show('timer 10m Walk\nconfirm "Umbrella?"', 'Before you go');
    await expect.poll(() => news.textContent()).toBe('Coach sent a screen: Before you go');
    await page.locator('.thread .svc-screen').last().getByRole('button', { name: /Walk/ }).click();
    const clockInLive = await page
      .locator('.thread .svc-screen')
      .last()
      .locator('.svc-clock')
      .evaluate((clock) => clock.closest('[aria-live]:not([aria-live="off"])') !== null);
    expect(clockInLive).toBe(false);
    await page.getByLabel('Message', { exact: true }).fill('ok');
    await page.getByLabel('Message', { exact: true }).press('Enter');
    await page.locator('.thread .msg.mine').last().waitFor();
    expect(await news.textContent()).toBe('Coach sent a screen: Before you go');
    await page.close();
  });
});

describe('numbers a person can read and hit', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`placeholders reach 4.5:1 and a progress fill 3:1 on its track (${scheme})`, async () => {
      await agent.show('ask "Weight?" placeholder=kg\nprogress 3/10 Chapters read');
      const page = await signedInPage();
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${service.url}/#/a/${agentId}`);
      const screen = page.locator('.thread .svc-screen').last();
      await screen.locator('.svc-bar').waitFor();
      await settled(page);
      const colours = await page.evaluate(() => {
        const field = [...document.querySelectorAll<HTMLInputElement>('.thread .svc-screen input')].at(-1)!;
        const composer = document.querySelector<HTMLTextAreaElement>('#composer')!;
        const fill = [...document.querySelectorAll('.svc-bar-fill')].at(-1)!;
        return {
          field: [getComputedStyle(field, '::placeholder').color, getComputedStyle(field).backgroundColor],
          composer: [
            getComputedStyle(composer, '::placeholder').color,
            getComputedStyle(composer).backgroundColor,
          ],
          bar: [
            getComputedStyle(fill).backgroundColor,
            getComputedStyle(fill.parentElement!).backgroundColor,
          ],
        };
      });
      const ratios = {
        field: contrast(colours.field[0]!, colours.field[1]!),
        composer: contrast(colours.composer[0]!, colours.composer[1]!),
        bar: contrast(colours.bar[0]!, colours.bar[1]!),
      };
      console.log(`contrast (${scheme}): ${JSON.stringify(ratios)}`);
      expect(ratios.field).toBeGreaterThanOrEqual(4.5);
      expect(ratios.composer).toBeGreaterThanOrEqual(4.5);
      expect(ratios.bar).toBeGreaterThanOrEqual(3);
      await page.close();
    });
  }

  it('footer links and settings controls are big enough; chart labels are at least 12 px', async () => {
    await agent.show('chart bar Mon=3|Tue=5|Wed=2 "Runs" unit=km');
    const page = await signedInPage();
    await page.goto(`${service.url}/#/`);
    await page.locator('.foot-links a').first().waitFor();
    const links = await page
      .locator('.foot-links a, .foot-links button')
      .evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().height)));
    expect(Math.min(...links)).toBeGreaterThanOrEqual(44);
    await page.goto(`${service.url}/#/a/${agentId}/settings`);
    await page.locator('input[name=color]').first().waitFor();
    const boxes = await page
      .locator('input[type=radio], input[type=checkbox]')
      .evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().width)));
    expect(Math.min(...boxes)).toBeGreaterThanOrEqual(22);
    await page.goto(`${service.url}/#/a/${agentId}`);
    await page.locator('.thread .svc-chart-svg').last().waitFor();
    const label = await page.evaluate(() => {
      const svg = [...document.querySelectorAll<SVGSVGElement>('.svc-chart-svg')].at(-1)!;
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      return Math.min(
        ...[...svg.querySelectorAll('.svc-chart-tick')].map(
          (t) => Number.parseFloat(getComputedStyle(t).fontSize) * scale,
        ),
      );
    });
    expect(Number(label.toFixed(3))).toBeGreaterThanOrEqual(12);
    await page.close();
  });

  it('the agent list does not jump as it loads (cumulative layout shift under 0.1)', async () => {
    const page = await signedInPage();
    await page.addInitScript(() => {
      const w = window as unknown as { shift: number };
      w.shift = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & {
          value: number;
          hadRecentInput: boolean;
        })[])
          if (!entry.hadRecentInput) w.shift += entry.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    // The agents arrive a network round trip after the page is drawn, as on a phone.
    await page.route('**/svc-app/agents', async (route) => {
      await new Promise((r) => setTimeout(r, 400));
      await route.continue();
    });
    await page.goto(`${service.url}/#/`);
    await page.locator('.agent-row').nth(5).waitFor();
    await page.locator('.foot-links').waitFor();
    await settled(page);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const shift = await page.evaluate(() => (window as unknown as { shift: number }).shift);
    console.log(`agent list CLS: ${shift.toFixed(3)}`);
    expect(shift).toBeLessThan(0.1);
    await page.close();
  });
});

describe('installable everywhere', () => {
  it('the manifest has 192 and 512 PNG icons and a maskable one; iOS gets a 180 px apple-touch-icon', async () => {
    const manifest = (await (await fetch(`${service.url}/manifest.webmanifest`)).json()) as {
      icons: { src: string; sizes: string; type: string; purpose: string }[];
      background_color: string;
      theme_color: string;
      color_scheme_dark: { background_color: string; theme_color: string };
    };
    const size = async (src: string) => {
      const res = await fetch(`${service.url}/${src}`);
      expect(res.headers.get('content-type')).toBe('image/png');
      const png = PNG.sync.read(Buffer.from(await res.arrayBuffer()));
      return `${png.width}x${png.height}`;
    };
    const pngs = manifest.icons.filter((i) => i.type === 'image/png');
    for (const icon of pngs) expect(await size(icon.src)).toBe(icon.sizes);
    expect(pngs.map((i) => `${i.sizes} ${i.purpose}`).sort()).toEqual([
      '192x192 any',
      '512x512 any',
      '512x512 maskable',
    ]);
    // The maskable icon is full bleed: its corners are the brand colour, not transparent.
    const maskable = PNG.sync.read(
      Buffer.from(
        await (
          await fetch(`${service.url}/${pngs.find((i) => i.purpose === 'maskable')!.src}`)
        ).arrayBuffer(),
      ),
    );
    expect(maskable.data[3]).toBe(255);
    const page = await browser.context.newPage();
    await page.goto(`${service.url}/`);
    const touch = await page.locator('link[rel="apple-touch-icon"]').getAttribute('href');
    expect(await size(touch!)).toBe('180x180');
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const look = await page.evaluate((s) => {
        const meta = document.querySelector<HTMLMetaElement>(`meta[name="theme-color"][media*="${s}"]`)!;
        const probe = document.createElement('div');
        probe.style.color = meta.content;
        document.body.append(probe);
        const theme = getComputedStyle(probe).color;
        probe.remove();
        return { theme, bar: getComputedStyle(document.querySelector('.bar')!).backgroundColor };
      }, scheme);
      expect(look.theme).toBe(look.bar);
    }
    expect(manifest.theme_color).toBe('#ffffff');
    expect(manifest.color_scheme_dark.background_color).not.toBe(manifest.background_color);
    await page.close();
  });
});
