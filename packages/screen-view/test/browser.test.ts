// @vitest-environment node
// Real Chromium: people click and type on drawn screens; the taps must be the catalog's events.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleHarness } from './browser/bundle.js';
import { type Chromium, launchChromium } from './chromium.js';

let browser: Chromium;
let page: Page;

beforeAll(async () => {
  const script = await bundleHarness();
  browser = await launchChromium();
  page = await browser.context.newPage();
  await page.setContent(
    '<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width"></head><body></body></html>',
  );
  await page.addScriptTag({ content: script });
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

async function show(lines: string, tables = ''): Promise<void> {
  await page.evaluate(
    async ([l, t]) => {
      window.taps = [];
      await window.show(l!, t);
    },
    [lines, tables],
  );
}
const taps = () =>
  page.evaluate(() =>
    window.taps.map((t) => ({ event: t.event, quiet: t.quiet, line: t.line.split('\n')[0] })),
  );

describe('screens in real Chromium', () => {
  it('a mouse tap on a choice sends the catalog event and shows the echo', async () => {
    await show('text **Lunch** time\nchoose@lunch "Lunch?" Soup|Salad|Pizza');
    await page.getByRole('button', { name: 'Pizza' }).click();
    expect(await taps()).toEqual([
      {
        event: { id: 'lunch', preset: 'choose', value: 'Pizza', screen: 's1' },
        quiet: false,
        line: '[svc] lunch choose choice=Pizza',
      },
    ]);
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Pizza');
    expect(await page.getByRole('button', { name: 'Soup' }).isDisabled()).toBe(true);
  });

  it('the keyboard reaches every control, shows a focus ring and presses buttons', async () => {
    await show('confirm "Send the report now?" Send|Later');
    await page.keyboard.press('Tab');
    const ring = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const style = getComputedStyle(el);
      return { text: el.textContent, outline: style.outlineStyle, width: style.outlineWidth };
    });
    expect(ring).toEqual({ text: 'Send', outline: 'solid', width: '3px' });
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    expect((await taps())[0]!.event).toEqual({
      id: 'n1',
      preset: 'confirm',
      value: false,
      label: 'Later',
      screen: 's1',
    });
  });

  it('a staged timer starts as a pill next to a visible question; starting is quiet', async () => {
    await show('timer 1s Stretch\nchoose "Ready?" Yes|No');
    expect(await page.getByRole('button', { name: 'Yes' }).isVisible()).toBe(true);
    await page.getByRole('button', { name: /Stretch · 0:01/ }).click();
    await expect.poll(async () => (await taps()).length, { timeout: 4_000 }).toBe(2);
    const [start, done] = await taps();
    expect(start).toMatchObject({ quiet: true, event: { value: 'start', seconds: 1 } });
    expect(done).toMatchObject({ quiet: false, event: { value: 'done' }, line: '[svc] n1 timer timer=done' });
  });

  it('checklist ticks stay quiet; a form is filled by typing', async () => {
    await show('checklist Keys|Wallet\nform "Visit" name:text age:number');
    await page.getByLabel('Wallet').check();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByLabel('Name').fill('Ana');
    await page.getByLabel('Age').fill('31');
    await page.getByLabel('Age').press('Enter');
    const all = await taps();
    expect(all.map((t) => [t.quiet, t.event.value])).toEqual([
      [true, { item: 'Wallet', checked: true }],
      [false, ['Wallet']],
      [false, { name: 'Ana', age: 31 }],
    ]);
  });

  it('a photo picked from a file goes out with its uploaded link', async () => {
    await show('photo "Show me the plant"');
    await page
      .locator('input[type=file]')
      .setInputFiles({ name: 'leaf.png', mimeType: 'image/png', buffer: Buffer.from('89504e47', 'hex') });
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(async () => (await taps()).length).toBe(1);
    expect((await taps())[0]!.event).toMatchObject({
      preset: 'photo',
      value: 1,
      photos: ['https://svc.test/photos/leaf.png'],
    });
  });

  it('query views: ticking a list row and sending rows; charts draw as SVG', async () => {
    await show(
      'query shopping as list check=Done\nquery runs as chart bar x=Day y=Km\nquery runs as send',
      'table create shopping Item:text Done:bool\nput shopping milk Item=Milk\ntable create runs Day:text Km:number\nput runs Day=Mon Km=3\nput runs Day=Tue Km=5',
    );
    await page.getByLabel('Milk').check();
    expect(await page.locator('rect.svc-chart-bar').count()).toBe(2);
    await page.getByRole('button', { name: 'Send' }).click();
    const [row, send] = await taps();
    expect(row!.event).toMatchObject({ op: 'row', table: 'shopping', key: 'milk', values: { Done: true } });
    expect(send).toMatchObject({
      line: '[svc] n3 query send=2',
      event: {
        op: 'query',
        rows: [
          ['Mon', 3],
          ['Tue', 5],
        ],
        count: 2,
      },
    });
  });

  it('math draws as MathML in a serif face without web fonts', async () => {
    await show('math \\frac{a}{b} = x^2');
    const info = await page.evaluate(() => {
      const m = document.querySelector('math')!;
      return {
        height: m.getBoundingClientRect().height,
        font: getComputedStyle(m).fontFamily,
        fonts: document.fonts.size,
      };
    });
    expect(info.height).toBeGreaterThan(20);
    expect(info.font).toMatch(/serif/);
    expect(info.fonts).toBe(0);
  });
});
