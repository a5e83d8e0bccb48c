import { describe, expect, it } from 'vitest';
import { buildComponent, buildDelete, buildPut, buildQuery, formatChecked } from './build.js';
import { ScreenLinesError } from './errors.js';
import { parse } from './parse.js';

describe('builders', () => {
  it('prints a component from props, quoting what needs it, and parses back to the same op', () => {
    const op = buildComponent(
      'choose',
      { question: 'Lunch "today"?', options: ['Soup', 'Hot | cold'] },
      'lunch',
    );
    const text = formatChecked([op]);
    expect(text).toBe('choose@lunch "Lunch \\"today\\"?" Soup|"Hot | cold"');
    expect(parse(text).ops).toEqual([op]);
  });

  it('fills catalog defaults and leaves undefined props out', () => {
    const op = buildComponent('ask', { question: 'Name?', placeholder: undefined });
    expect(op.props).toEqual({ question: 'Name?', type: 'text' });
    expect(formatChecked([op])).toBe('ask "Name?"');
    expect(formatChecked([buildComponent('form', { fields: [{ key: 'age', type: 'number' }] }, 'f')])).toBe(
      'form@f age:number',
    );
  });

  it('refuses what the parser would refuse, with the parser message, and unknown components', () => {
    const few = buildComponent('choose', { question: 'Lunch?', options: ['Soup'] });
    expect(() => formatChecked([few])).toThrow(/at least two options/);
    expect(() => buildComponent('nope', {})).toThrow(ScreenLinesError);
    expect(() =>
      formatChecked([buildComponent('checkin', { kind: 'scale', question: 'Pain?' }, '1x')]),
    ).toThrow(/line 1/);
  });

  it('types put cells: numbers, yes/no, days, Dates, text and empty', () => {
    const op = buildPut(
      'log',
      {
        Kg: 71.5,
        Done: true,
        Day: '2026-11-28',
        At: new Date(Date.UTC(2026, 10, 28, 9, 5)),
        Note: 'on',
        Gone: null,
      },
      'k 1',
    );
    const text = formatChecked([op]);
    expect(text).toBe('put log "k 1" Kg=71.5 Done=on Day=2026-11-28 At=2026-11-28T09:05 Note="on" Gone=');
    const [back] = parse(text).ops;
    expect(back).toMatchObject({ op: 'put', key: 'k 1', values: { Note: { kind: 'text', value: 'on' } } });
    expect(() => buildPut('log', { Kg: Number.NaN })).toThrow(/finite/);
    expect(formatChecked([buildDelete('log', 'k1')])).toBe('put log k1 +delete');
  });

  it('prints a query with defaults filled', () => {
    const op = buildQuery({ table: 'log', sort: [{ col: 'Day', desc: true }], limit: 7, as: 'list' }, 'q');
    const text = formatChecked([op]);
    expect(text).toBe('query@q log sort=-Day limit=7 as list');
    expect(parse(text).ops[0]).toMatchObject({ preset: 'query', id: 'q', props: { table: 'log', limit: 7 } });
  });
});
