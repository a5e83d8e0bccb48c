import { parse } from '@screen-service/screen-lines';
import { createMemoryStore, runLines } from '@screen-service/tables-engine';
import { describe, expect, it } from 'vitest';
import { draw } from '../../test/helpers.js';
import { createStoreQuery } from '../store-query.js';

const ctx = { owner: 'me', agent: 'coach', now: Date.parse('2026-11-21T09:00:00Z'), timeZone: 'UTC' };

async function tables(lines: string) {
  const store = createMemoryStore();
  const answer = await runLines(store, { ...ctx, lines });
  expect(answer.failed).toEqual([]);
  const tables = createStoreQuery(store, ctx);
  /** Reads the screen's answers from the store, then draws it. */
  const show = async (screen: string) => {
    await tables.load(parse(screen).ops);
    return draw(screen, { query: tables.query });
  };
  return { store, tables, show };
}

const SEED = [
  'table create weights Day:date Weight:number:kg',
  'put weights d1 Day=2026-11-19 Weight=72.9',
  'put weights d2 Day=2026-11-20 Weight=72.5',
  'put weights d3 Day=2026-11-21 Weight=72.1',
  'table create shopping Item:text Done:bool',
  'put shopping milk Item=Milk Done=off',
  'put shopping eggs Item=Eggs +Done',
].join('\n');

describe('query views from the tables engine', () => {
  it('table: header taps sort on the phone; units under the header', async () => {
    const { show } = await tables(SEED);
    const d = await show('query weights "Weights"');
    const table = d.c('n1').querySelector('table')!;
    expect(table.querySelector('caption')!.textContent).toBe('Weights');
    expect(table.querySelector('.svc-unit-head')!.textContent).toBe('kg');
    const firstCells = () =>
      [...table.querySelectorAll('tbody tr')].map((r) => r.firstElementChild!.textContent);
    expect(firstCells()).toEqual(['2026-11-19', '2026-11-20', '2026-11-21']);
    const weight = [...table.querySelectorAll<HTMLButtonElement>('th button')].find(
      (b) => b.textContent === 'Weight',
    )!;
    weight.click();
    expect(firstCells()).toEqual(['2026-11-21', '2026-11-20', '2026-11-19']);
    weight.click();
    expect(firstCells()).toEqual(['2026-11-19', '2026-11-20', '2026-11-21']);
    expect(weight.closest('th')!.getAttribute('aria-sort')).toBe('descending');
  });

  it('list with check=: ticking sends the row event; refresh redraws from the store', async () => {
    const { store, tables: answers, show } = await tables(SEED);
    const d = await show('query shopping as list check=Done');
    const boxes = d.c('n1').querySelectorAll<HTMLInputElement>('input[type=checkbox]');
    expect([...boxes].map((b) => b.checked)).toEqual([false, true]);
    boxes[0]!.click();
    expect(d.taps[0]!.event).toEqual({
      id: 'n1',
      preset: 'query',
      value: 'milk',
      op: 'row',
      table: 'shopping',
      key: 'milk',
      values: { Done: true },
    });
    expect(d.c('n1').dataset.answered).toBeUndefined();
    await runLines(store, { ...ctx, lines: 'put shopping bread Item=Bread' });
    await answers.load(parse('query shopping as list check=Done').ops);
    d.handle.refresh();
    expect(d.c('n1').querySelectorAll('li')).toHaveLength(3);
  });

  it('chart, stat and send', async () => {
    const { show } = await tables(SEED);
    const d = await show(
      'query weights as chart line x=Day y=Weight "Trend"\nquery weights as stat good=down\nquery weights as send',
    );
    const svg = d.c('n1').querySelector('svg')!;
    expect(svg.getAttribute('role')).toBe('img');
    expect(svg.getAttribute('aria-label')).toContain('2026-11-21 72.1 kg');
    expect(svg.querySelectorAll('circle')).toHaveLength(3);
    const stat = d.c('n2');
    expect(stat.querySelector('.svc-stat-value')!.textContent).toBe('72.1 kg');
    expect(stat.querySelector('.svc-stat-change')!.classList.contains('svc-good')).toBe(true);
    expect(stat.querySelector('.svc-spark')).not.toBeNull();
    expect(d.c('n3').textContent).toContain('Send 3 rows from weights?');
    d.click('n3', 'Send');
    expect(d.taps[0]!.event).toMatchObject({
      preset: 'query',
      op: 'query',
      table: 'weights',
      count: 3,
      value: 3,
    });
    expect((d.taps[0]!.event.rows as unknown[]).length).toBe(3);
    expect(d.taps[0]!.line.split('\n')[0]).toBe('[svc] n3 query send=3');
    expect(d.c('n3').dataset.answered).toBe('true');
  });

  it('a missing table or a query that cannot run says why in place of the view', async () => {
    const { show } = await tables(SEED);
    const d = await show('query nothing\nquery weights as chart y=Nope');
    expect(d.c('n1').textContent).toBe('No table called nothing yet.');
    expect(d.c('n2').querySelector('.svc-note')!.textContent).toMatch(/Nope/);
    const none = draw('query weights');
    expect(none.c('n1').textContent).toBe('Tables are not available here.');
  });
});
