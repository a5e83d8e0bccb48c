// Issue 38 item 0 in real Chromium against the real service: a thread with two screens of every answerable
// component, both numbered from n1. Each tap (on the words, as a person taps) lands on its own screen, the
// answer svc_answers returns names that screen and the value tapped there, and axe-core finds no repeated id.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit, describeViolations } from './axe.js';
import { type Chromium, launchChromium } from './chromium.js';
import { type Answer, connectMcpAgent, type McpAgent } from './mcp-agent.js';
import { startService } from './server.js';
import { signUpAndPair } from './signup-and-pair.js';

const TABLES =
  'table create shopping Item:text Done:bool\nput shopping milk Item=Milk\nput shopping bread Item=Bread';

/** Every answerable component of the catalog once (ids n1... as svc_show gives them). */
const ANSWERABLE = [
  'timer 1s Tea',
  'choose "Lunch?" Soup|Salad',
  'choose "Toppings?" Cheese|Olives +multi',
  'confirm "Ready?"',
  'buttons "Next?" Go|Stop',
  'checkin mood "How do you feel?"',
  'checkin rating "Rate it"',
  'checkin scale "Pain?" max=5',
  'checklist "Today" Read|Water',
  'ask "Your name?"',
  'ask "Email?" type=email',
  'form "About you" name:text ok:bool',
  'photo "Show me"',
  'deck "One"|"Two"',
  'query shopping as list check=Done',
  'query shopping as send',
].join('\n');

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

let service: Awaited<ReturnType<typeof startService>>;
let browser: Chromium;
let page: Page;
let agent: McpAgent;

beforeAll(async () => {
  service = await startService();
  const token = await signUpAndPair(service.url, 'two-screens@example.com');
  agent = await connectMcpAgent(service.url, token);
  browser = await launchChromium({ viewport: { width: 390, height: 844 } });
  page = await browser.context.newPage();
  await page.goto(service.url);
  await page.getByLabel('Email').fill('two-screens@example.com');
  await page.getByLabel(/^Password/).fill('correct horse battery');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('.agent-row').click();
  await page.locator('.thread-head').waitFor();
}, 60_000);

afterAll(async () => {
  await agent?.close();
  await browser?.close();
  await service?.dispose();
});

/** What a person does on one screen; `which` picks the values so the two screens' answers differ. */
async function answerAll(screen: Locator, which: 0 | 1): Promise<void> {
  const c = (id: string) => screen.locator(`[data-id="${id}"]`);
  await c('n1').getByRole('button', { name: /Tea/ }).click();
  await c('n2')
    .getByRole('button', { name: ['Soup', 'Salad'][which] })
    .click();
  await c('n3')
    .getByRole('button', { name: ['Cheese', 'Olives'][which] })
    .click();
  await c('n3').getByRole('button', { name: 'Send' }).click();
  await c('n4')
    .getByRole('button', { name: ['Yes', 'No'][which] })
    .click();
  await c('n5')
    .getByRole('button', { name: ['Go', 'Stop'][which] })
    .click();
  await c('n6')
    .locator(`button[data-value="${[2, 4][which]}"]`)
    .click();
  await c('n7')
    .locator(`button[data-value="${[1, 5][which]}"]`)
    .click();
  await c('n8')
    .locator(`button[data-value="${[1, 3][which]}"]`)
    .click();
  // The words, not the boxes: a label whose `for` names another screen's box ticks that one.
  await c('n9').getByText(['Read', 'Water'][which]!, { exact: true }).click();
  await c('n9').getByRole('button', { name: 'Done' }).click();
  await c('n10').getByText('Your name?').click();
  await page.keyboard.type(['Al', 'Bo'][which]!);
  await page.keyboard.press('Enter');
  await c('n11').getByText('Email?').click();
  await page.keyboard.type(['a@example.com', 'b@example.com'][which]!);
  await page.keyboard.press('Enter');
  await c('n12').getByText('Name', { exact: true }).click();
  await page.keyboard.type(['Ann', 'Bea'][which]!);
  if (which === 1) await c('n12').getByText('Ok', { exact: true }).click();
  await c('n12').getByRole('button', { name: 'Send' }).click();
  const chooser = page.waitForEvent('filechooser');
  await c('n13').getByText('Take or choose a photo').click();
  await (await chooser).setFiles({ name: `p${which}.png`, mimeType: 'image/png', buffer: PNG });
  await c('n13').getByRole('button', { name: 'Send' }).click();
  await c('n14')
    .getByRole('button', { name: /2 cards/ })
    .click();
  await c('n14').getByRole('button', { name: 'Next' }).click();
  await c('n14').getByRole('button', { name: 'Done' }).click();
  await c('n15').getByText(['Milk', 'Bread'][which]!, { exact: true }).click();
  await c('n16').getByRole('button', { name: 'Send' }).click();
}

/**
 * Every answer after `since` (svc_answers' `screen_id` is a cursor, not a filter), read until each screen has
 * the final answer of each component; grouped by the screen the answer names.
 */
async function finalAnswers(since: string, screens: string[], ids: string[]): Promise<Map<string, Answer>[]> {
  const last = screens.map(() => new Map<string, Answer>());
  const complete = () => last.every((m) => ids.every((id) => m.has(id)));
  for (let round = 0; round < 30 && !complete(); round++) {
    for (const a of await agent.answers(since, 3)) {
      const event = a.event as { id: string; value: unknown; op?: string } | null;
      const at = screens.indexOf(a.screen_id ?? '');
      if (!event || at < 0) continue;
      // A checklist's ticks are quiet; its Done is its answer.
      const tick = typeof event.value === 'object' && event.value !== null && 'checked' in event.value;
      if (!tick) last[at]!.set(event.op === 'row' ? `${event.id}:row` : event.id, a);
    }
  }
  return last;
}

describe('two screens of every answerable component in one thread', () => {
  it('each tap lands on its own screen and the answer names that screen and value', async () => {
    const first = await agent.show(`${TABLES}\n${ANSWERABLE}`);
    const second = await agent.show(ANSWERABLE);
    const screenA = page.locator(`.svc-screen[data-screen="${first.screen_id}"]`);
    const screenB = page.locator(`.svc-screen[data-screen="${second.screen_id}"]`);
    await screenB.locator('.svc-list').waitFor();
    await screenA.locator('.svc-list').waitFor();

    const duplicates = (await audit(page)).filter((v) => v.id.startsWith('duplicate-id'));
    expect(describeViolations(duplicates)).toEqual([]);

    // The second screen first: with repeated ids its labels reached into the first screen.
    await answerAll(screenB, 1);
    await answerAll(screenA, 0);
    const ids = [
      'n1',
      'n2',
      'n3',
      'n4',
      'n5',
      'n6',
      'n7',
      'n8',
      'n9',
      'n10',
      'n11',
      'n12',
      'n13',
      'n14',
      'n15:row',
      'n16',
    ];
    const answers = await finalAnswers(first.screen_id, [first.screen_id, second.screen_id], ids);
    const values = answers.map((m) => Object.fromEntries(ids.map((id) => [id, m.get(id)?.event?.value])));
    expect(values).toEqual([
      {
        n1: 'done',
        n2: 'Soup',
        n3: ['Cheese'],
        n4: true,
        n5: 'Go',
        n6: 2,
        n7: 1,
        n8: 1,
        n9: ['Read'],
        n10: 'Al',
        n11: 'a@example.com',
        n12: { name: 'Ann', ok: false },
        n13: 1,
        n14: 2,
        'n15:row': 'milk',
        n16: expect.any(Number),
      },
      {
        n1: 'done',
        n2: 'Salad',
        n3: ['Olives'],
        n4: false,
        n5: 'Stop',
        n6: 4,
        n7: 5,
        n8: 3,
        n9: ['Water'],
        n10: 'Bo',
        n11: 'b@example.com',
        n12: { name: 'Bea', ok: true },
        n13: 1,
        n14: 2,
        'n15:row': 'bread',
        n16: expect.any(Number),
      },
    ]);
    // Each screen's photo answer carries the one photo picked on that screen.
    for (const screen of answers) expect(screen.get('n13')!.photos).toHaveLength(1);
  }, 120_000);
});
