// @vitest-environment node
// Real Chromium: random screens of every answerable component, answered by clicking and typing; every event the
// renderer sends passes the server's check (checkTap), and an answer in the wrong format stays on the screen.
import { type AddOp, checkTap, componentOn, parse } from '@screen-service/screen-lines';
import fc from 'fast-check';
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
  await page.setContent('<!doctype html><html lang="en"><head></head><body></body></html>');
  await page.addScriptTag({ content: script });
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

interface Tap {
  event: { id: string; value: unknown; [k: string]: unknown };
  quiet: boolean;
}

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
  page.evaluate(() => window.taps.map((t) => ({ event: t.event, quiet: t.quiet }))) as Promise<Tap[]>;
const c = (id: string) => page.locator(`[data-id="${id}"]`);

/** Checks every tap the page recorded against the component the lines draw. */
async function expectAllAccepted(lines: string): Promise<Tap[]> {
  const { ops } = parse(lines);
  const all = await taps();
  for (const t of all) {
    const component = componentOn(ops, t.event.id) as AddOp;
    const verdict = checkTap(component, t.event);
    expect(verdict, JSON.stringify(t.event)).toMatchObject({ ok: true, quiet: t.quiet });
  }
  return all;
}

const RESERVED = new Set(['Send', 'Done', 'Next', 'Back', 'Start']);
const word = fc.stringMatching(/^[A-Z][a-zé]{1,6}( [a-z]{2,4})?$/).filter((w) => !RESERVED.has(w));
const words = (min: number, max: number) => fc.uniqueArray(word, { minLength: min, maxLength: max });
const q = (list: string[]) => list.map((w) => `"${w}"`).join('|');
const TYPES = ['text', 'long', 'number', 'date', 'email'] as const;
const typed = {
  text: word,
  long: fc.tuple(word, word).map(([a, b]) => `${a}\n${b}`),
  number: fc.double({ min: -1e9, max: 1e9, noNaN: true }).map(String),
  date: fc
    .date({ min: new Date('1900-01-01'), max: new Date('2100-12-31'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
  email: fc
    .tuple(fc.stringMatching(/^[a-z0-9.+_-]{1,12}$/), fc.stringMatching(/^[a-z]{2,8}\.[a-z]{2,4}$/))
    .map(([a, b]) => `${a}@${b}`),
} as const;

const screenArb = fc.record({
  single: words(2, 5),
  multi: words(2, 5),
  picks: fc.array(fc.nat(10), { minLength: 1, maxLength: 5 }),
  confirm: fc.option(words(2, 2), { nil: undefined }),
  yes: fc.boolean(),
  buttons: words(1, 6),
  kind: fc.constantFrom('scale', 'mood', 'rating'),
  min: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
  max: fc.option(fc.integer({ min: 4, max: 12 }), { nil: undefined }),
  items: words(1, 6),
  ticks: fc.array(fc.nat(10), { maxLength: 6 }),
  askType: fc.constantFrom(...TYPES),
  answer: fc.nat(1000),
  fields: fc.uniqueArray(
    fc.record({ key: fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/), type: fc.constantFrom(...TYPES, 'bool') }),
    { selector: (f) => f.key, minLength: 1, maxLength: 5 },
  ),
  filled: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
  photoMax: fc.integer({ min: 1, max: 4 }),
  photos: fc.integer({ min: 1, max: 5 }),
  cards: words(1, 4),
  row: fc.nat(2),
});

describe('every tap the renderer sends passes the server check (random screens, real Chromium)', () => {
  it('choose, +multi, confirm, buttons, checkin, checklist, ask, form, photo, deck and query views', async () => {
    await fc.assert(
      fc.asyncProperty(screenArb, async (s) => {
        const scale = `${s.min === undefined ? '' : ` min=${s.min}`}${s.max === undefined ? '' : ` max=${s.max}`}`;
        const lines = [
          `choose@c1 "One?" ${q(s.single)}`,
          `choose@c2 "Some?" ${q(s.multi)} +multi`,
          `confirm@c3 "Sure?"${s.confirm ? ` ${q(s.confirm)}` : ''}`,
          `buttons@c4 "Next?" ${q(s.buttons)}`,
          `checkin@c5 ${s.kind} "How?"${scale}`,
          `checklist@c6 "Pack" ${q(s.items)}`,
          `ask@c7 "Tell me" type=${s.askType}`,
          `form@c8 "Visit" ${s.fields.map((f) => `${f.key}:${f.type}`).join(' ')}`,
          `photo@c9 "Show me" max=${s.photoMax}`,
          `deck@c10 ${q(s.cards)}`,
          'query@q1 shopping as list check=Done',
          'query@q2 runs as send',
        ].join('\n');
        await show(
          lines,
          'table create shopping Item:text Done:bool\nput shopping milk Item=Milk\nput shopping eggs Item=Eggs\nput shopping tea Item=Tea +Done\ntable create runs Day:text Km:number\nput runs Day=Mon Km=3\nput runs Day=Tue Km=5',
        );
        await c('c1')
          .getByRole('button', { name: s.single[s.picks[0]! % s.single.length]!, exact: true })
          .click();
        for (const i of new Set(s.picks.map((p) => p % s.multi.length))) {
          await c('c2').getByRole('button', { name: s.multi[i]!, exact: true }).click();
        }
        await c('c2').getByRole('button', { name: 'Send' }).click();
        await c('c3')
          .locator('button')
          .nth(s.yes ? 0 : 1)
          .click();
        await c('c4')
          .getByRole('button', { name: s.buttons[s.picks[0]! % s.buttons.length]!, exact: true })
          .click();
        const steps = c('c5').locator('button');
        await steps.nth(s.picks[0]! % (await steps.count())).click();
        for (const i of new Set(s.ticks.map((t) => t % s.items.length)))
          await c('c6').locator('input').nth(i).click();
        await c('c6').getByRole('button', { name: 'Done' }).click();
        const answer = fc.sample(typed[s.askType], { numRuns: 1, seed: s.answer })[0]!;
        await c('c7').locator('input, textarea').fill(answer);
        await c('c7').getByRole('button', { name: 'Send' }).click();
        for (const [i, f] of s.fields.entries()) {
          // Fields in their order (element ids are scoped to the screen, so found by position here).
          const input = c('c8').locator('input, textarea').nth(i);
          if (f.type === 'bool') {
            if (s.filled[i]) await input.check();
          } else if (s.filled[i])
            await input.fill(fc.sample(typed[f.type], { numRuns: 1, seed: s.answer + i })[0]!);
        }
        await c('c8').getByRole('button', { name: 'Send' }).click();
        const files = Array.from({ length: s.photos }, (_, i) => ({
          name: `p${i}.png`,
          mimeType: 'image/png',
          buffer: Buffer.from('89504e47', 'hex'),
        }));
        await c('c9')
          .locator('input[type=file]')
          .setInputFiles(s.photoMax > 1 ? files : files.slice(0, 1));
        await c('c9').getByRole('button', { name: 'Send' }).click();
        await c('c10').locator('.svc-pill').click();
        for (let i = 0; i < s.cards.length; i++) await c('c10').locator('button.svc-primary').click();
        await c('q1').locator('input[type=checkbox]').nth(s.row).click();
        await c('q2').getByRole('button', { name: 'Send' }).click();
        // Every component answered: the photo's upload resolves last.
        await expect
          .poll(async () => new Set((await taps()).filter((t) => !t.quiet).map((t) => t.event.id)).size)
          .toBe(12);
        const all = await expectAllAccepted(lines);
        expect(all.filter((t) => t.quiet).length).toBe(
          new Set(s.ticks.map((t) => t % s.items.length)).size + s.cards.length - 1,
        );
      }),
      { numRuns: 8 },
    );
  }, 120_000);

  it('a timer: starting (quiet) and running out', async () => {
    const lines = 'timer@t 1s Stretch';
    await show(lines);
    await c('t').locator('.svc-pill').click();
    await expect.poll(async () => (await taps()).length, { timeout: 4_000 }).toBe(2);
    expect((await expectAllAccepted(lines)).map((t) => t.event.value)).toEqual(['start', 'done']);
  });
});

describe('an answer the screen does not take stays on the screen, with what it needs', () => {
  it('an email in the wrong format and a text over 2000 characters are not sent; a good one is', async () => {
    await show('ask@e "Your email?" type=email\nask@t "Your story?"');
    await c('e').getByRole('textbox').fill('not an address');
    await c('e').getByRole('textbox').press('Enter');
    // The field says what is wrong under itself (the server's own email rule), and nothing is sent.
    await expect
      .poll(() => c('e').locator('.svc-field-error').textContent())
      .toBe('“not an address” is not an email address. Type one like name@example.com.');
    expect(await c('e').getByRole('textbox').getAttribute('aria-invalid')).toBe('true');
    expect(await c('e').getByRole('textbox').isEnabled()).toBe(true);
    await c('t').getByRole('textbox').fill('x'.repeat(2001));
    await c('t').getByRole('button', { name: 'Send' }).click();
    await expect
      .poll(() => c('t').getByRole('alert').textContent())
      .toContain('text of 1 to 2000 characters');
    expect(await taps()).toEqual([]);

    await c('e').getByRole('textbox').fill('ana@example.com');
    await c('e').getByRole('textbox').press('Enter');
    await expect.poll(async () => (await taps()).length).toBe(1);
    expect((await taps())[0]!.event).toMatchObject({ id: 'e', value: 'ana@example.com' });
    expect(await c('e').locator('.svc-field-error').isHidden()).toBe(true);
    expect(await c('e').getAttribute('data-answered')).toBe('true');
  });
});
