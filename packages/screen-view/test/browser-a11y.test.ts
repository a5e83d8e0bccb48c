// @vitest-environment node
// Real Chromium: several screens on one page keep their ids apart (a tap on a label lands on its own screen,
// axe-core finds no repeated id), the keyboard focus follows answers, and targets and labels are big enough.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './axe.js';
import { bundleHarness } from './browser/bundle.js';
import { type Chromium, launchChromium } from './chromium.js';

let browser: Chromium;
let page: Page;

/** One of each answerable component, numbered from n1 as svc_show numbers them. */
const ANSWERABLE = [
  'timer 5m Stretch',
  'choose "Lunch?" Soup|Salad',
  'choose "Toppings?" Cheese|Olives +multi',
  'confirm "Ready?"',
  'buttons "Next?" Go|Stop',
  'checkin mood "How do you feel?"',
  'checkin rating "Rate it"',
  'checklist "Today" Read|Water',
  'ask "Your name?" placeholder=Sam',
  'ask "Email?" type=email',
  'form "About you" name:text ok:bool',
  'photo "Show me"',
  'deck "One"|"Two"',
].join('\n');

beforeAll(async () => {
  const script = await bundleHarness();
  browser = await launchChromium();
  page = await browser.context.newPage();
  await page.setContent(
    '<!doctype html><html lang="en"><head><title>Screens</title><meta name="viewport" content="width=device-width"></head><body><header><h1>Screens</h1></header><main></main></body></html>',
  );
  await page.addScriptTag({ content: script });
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

/** Draws the screens and waits until their entering animation ended (colours are measured after it). */
async function showScreens(screens: { lines: string; screen: string }[]): Promise<void> {
  await page.evaluate(async (s) => {
    window.taps = [];
    window.showScreens(s);
    await Promise.all(
      document
        .getAnimations()
        .filter((a) => Number.isFinite(a.effect?.getComputedTiming().endTime ?? 0))
        .map((a) => a.finished),
    );
  }, screens);
}
const taps = () => page.evaluate(() => window.taps.map((t) => t.event));
const screen = (n: number) => page.locator('.svc-screen').nth(n);

describe('two screens numbered from n1 on one page', () => {
  it('axe-core finds no violation and no repeated id, even when a page draws one screen id twice', async () => {
    await showScreens([
      { lines: ANSWERABLE, screen: 's1' },
      { lines: ANSWERABLE, screen: 's2' },
      { lines: ANSWERABLE, screen: 's2' },
    ]);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('a tap on a label in the second screen ticks and answers the second screen', async () => {
    await showScreens([
      { lines: ANSWERABLE, screen: 's1' },
      { lines: ANSWERABLE, screen: 's2' },
    ]);
    // A person taps the words, not the box: the label's `for` must name this screen's box.
    await screen(1).getByText('Water').click();
    await screen(1).getByText('Ok', { exact: true }).click();
    expect(await screen(0).getByRole('checkbox', { name: 'Water' }).isChecked()).toBe(false);
    expect(await screen(1).getByRole('checkbox', { name: 'Water' }).isChecked()).toBe(true);
    expect(await screen(1).getByRole('checkbox', { name: 'Ok' }).isChecked()).toBe(true);
    await screen(1).getByRole('button', { name: 'Done' }).click();
    await screen(1).getByText('Your name?').click();
    await page.keyboard.type('Ana');
    await page.keyboard.press('Enter');
    const chooser = page.waitForEvent('filechooser');
    await screen(1).getByText('Take or choose a photo').click();
    await (await chooser).setFiles({
      name: 'leaf.png',
      mimeType: 'image/png',
      buffer: Buffer.from('89504e47', 'hex'),
    });
    await screen(1).locator('.svc-photo').getByRole('button', { name: 'Send' }).click();
    await expect.poll(async () => (await taps()).length).toBe(4);
    expect(await taps()).toEqual([
      { id: 'n8', preset: 'checklist', value: { item: 'Water', checked: true }, screen: 's2' },
      { id: 'n8', preset: 'checklist', value: ['Water'], screen: 's2' },
      { id: 'n9', preset: 'ask', value: 'Ana', screen: 's2' },
      { id: 'n12', preset: 'photo', value: 1, photos: ['https://svc.test/photos/leaf.png'], screen: 's2' },
    ]);
    expect(await screen(0).locator('[data-answered]').count()).toBe(0);
  });
});

describe('the keyboard focus after an answer', () => {
  it('lands on the echo of what was answered, with a ring, and the picked option is marked ✓ and named', async () => {
    await showScreens([{ lines: 'choose@lunch "Lunch?" Soup|Salad\ntimer 1m Tea', screen: 's1' }]);
    await screen(0).getByRole('button', { name: 'Salad' }).focus();
    await page.keyboard.press('Enter');
    const focus = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      return { text: el.textContent, cls: el.className, ring: getComputedStyle(el).outlineStyle };
    });
    expect(focus).toEqual({ text: '✓ Salad', cls: 'svc-echo', ring: 'solid' });
    const picked = screen(0).locator('[data-value="Salad"]');
    expect(await picked.evaluate((b) => getComputedStyle(b, '::before').content)).toContain('✓');
    expect(
      await screen(0)
        .locator('[data-value="Soup"]')
        .evaluate((b) => getComputedStyle(b, '::before').content),
    ).toBe('none');
    expect(await screen(0).getByRole('button', { name: 'picked: Salad' }).count()).toBe(1);
  });

  it('opening the timer from the keyboard moves the focus to its clock, named as it counts down', async () => {
    await showScreens([{ lines: 'timer 1m Tea', screen: 's1' }]);
    await screen(0)
      .getByRole('button', { name: /Tea · 1:00/ })
      .focus();
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('timer');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')), { timeout: 4_000 })
      .toMatch(/^Tea, running: 0:5\d left$/);
  });
});

describe('sizes a finger and an eye can use', () => {
  it('table sort headers are 44 px tall and chart labels at least 12 px', async () => {
    await page.evaluate(async () => {
      await window.show(
        'query runs as table\nquery runs as chart bar x=Day y=Km',
        'table create runs Day:text Km:number\nput runs Day=Mon Km=3',
      );
      // Measured once the screen has finished entering (it may grow into place).
      await Promise.all(document.getAnimations().map((a) => a.finished));
    });
    const header = await page.locator('.svc-th').first().boundingBox();
    expect(header!.height).toBeGreaterThanOrEqual(44);
    const smallest = await page.evaluate(() =>
      Math.min(
        ...[...document.querySelectorAll<SVGTextElement>('.svc-chart-tick')].map((t) => {
          const svg = t.ownerSVGElement!;
          const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
          return Number.parseFloat(getComputedStyle(t).fontSize) * scale;
        }),
      ),
    );
    expect(Number(smallest.toFixed(3))).toBeGreaterThanOrEqual(12);
  });

  it('12 px axis labels of a month of days do not run into each other', async () => {
    const days = Array.from(
      { length: 30 },
      (_, i) => `put w d${i} Day=2026-11-${String(i + 1).padStart(2, '0')} Kg=${70 + (i % 5)}`,
    );
    for (const width of [320, 390, 560]) {
      await page.setViewportSize({ width, height: 860 });
      await page.evaluate(
        async (t) => {
          await window.show('query w as chart line x=Day y=Kg', t);
          await Promise.all(document.getAnimations().map((a) => a.finished));
        },
        ['table create w Day:date Kg:number', ...days].join('\n'),
      );
      const boxes = await page.locator('.svc-chart-tick[text-anchor]').evaluateAll((els) =>
        els
          .map((e) => e.getBoundingClientRect())
          .filter((r, _, all) => Math.abs(r.bottom - Math.max(...all.map((a) => a.bottom))) < 1)
          .map((r) => [r.left, r.right] as const),
      );
      expect(boxes.length).toBeGreaterThanOrEqual(3);
      const height = await page.evaluate(() => {
        const t = document.querySelector<SVGTextElement>('.svc-chart-x:not([display])')!;
        const svg = t.ownerSVGElement!;
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        return Number((Number.parseFloat(getComputedStyle(t).fontSize) * scale).toFixed(3));
      });
      expect(height, `at ${width}px`).toBeGreaterThanOrEqual(12);
      for (let i = 1; i < boxes.length; i++)
        expect(boxes[i]![0], `at ${width}px`).toBeGreaterThan(boxes[i - 1]![1]);
    }
    await page.setViewportSize({ width: 420, height: 860 });
  });
});
