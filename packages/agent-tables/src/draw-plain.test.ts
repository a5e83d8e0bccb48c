import { createMemoryStore, runLines } from '@screen-service/tables-engine';
import { describe, expect, it } from 'vitest';
import { drawPlain } from './draw-plain.js';

async function results(text: string) {
  const store = createMemoryStore();
  const call = { owner: 'u', agent: 'a', now: Date.parse('2026-11-23T10:00:00Z'), timeZone: 'UTC' };
  await runLines(store, {
    ...call,
    lines:
      'table create W Day:date Kg:number:kg Done:bool Note:text\nput W Day=2026-11-20 Kg=72 +Done Note="a|b"\nput W Day=2026-11-21 Kg=71.5',
  });
  return (await runLines(store, { ...call, lines: text })).results;
}

describe('drawPlain', () => {
  it('draws a table with units in the header and escaped pipes', async () => {
    expect(drawPlain((await results('query W'))[0]!)).toBe(
      [
        '| Day | Kg (kg) | Done | Note |',
        '| --- | --- | --- | --- |',
        '| 2026-11-20 | 72 | on | a\\|b |',
        '| 2026-11-21 | 71.5 |  |  |',
      ].join('\n'),
    );
  });
  it('draws a list, a chart, a stat, a title and the reason in place of a view', async () => {
    expect(drawPlain((await results('query W cols=Day|Done as list check=Done'))[0]!)).toBe(
      '- [x] 2026-11-20\n- [ ] 2026-11-21',
    );
    expect(drawPlain((await results('query W as chart x=Day y=Kg'))[0]!)).toBe(
      `2026-11-20  ${'█'.repeat(20)} 72 kg\n2026-11-21  ${'█'.repeat(20)} 71.5 kg`,
    );
    expect(drawPlain((await results('query W as stat y=Kg "Weight now"'))[0]!)).toBe(
      '**Weight now**\nKg: 71.5 kg (-0.5 since the row before)',
    );
    expect(drawPlain((await results('query Nope'))[0]!)).toBe('No table called Nope yet.');
    expect(drawPlain((await results('query W where=Kg>100'))[0]!)).toBe('W: no rows.');
  });
});
