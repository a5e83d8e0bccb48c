import { describe, expect, it } from 'vitest';
import { convertCell, fitValue, parseNumberText, writtenText } from './fit-value.js';

const ctx = { now: new Date('2026-03-01T23:30:00Z'), timeZone: 'Europe/Berlin', maxText: 10 };

describe('fitValue', () => {
  it('refuses a today offset out of range instead of throwing (lines stored before the parser refused them)', () => {
    const date = { name: 'When', type: 'date' as const };
    for (const offset of [99_999_999, -99_999_999, 1e300]) {
      expect(fitValue({ kind: 'today', offset }, date, ctx)).toMatchObject({
        ok: false,
        code: 'VALUE_DOES_NOT_FIT',
        message: expect.stringMatching(/^When: 'today[+-]\S+' is out of range/),
      });
    }
  });

  it('fits each kind to each column type or says why not', () => {
    const num = { name: 'W', type: 'number' as const, unit: 'kg' };
    expect(fitValue({ kind: 'number', value: 7, text: '7' }, num, ctx)).toEqual({ ok: true, cell: 7 });
    expect(fitValue({ kind: 'text', value: '7.5 kg' }, num, ctx)).toEqual({ ok: true, cell: 7.5 });
    expect(fitValue({ kind: 'text', value: '7.5 lb' }, num, ctx)).toMatchObject({
      ok: false,
      code: 'VALUE_DOES_NOT_FIT',
    });
    expect(fitValue({ kind: 'bool', value: true }, num, ctx)).toMatchObject({ ok: false });
    const date = { name: 'D', type: 'date' as const };
    expect(fitValue({ kind: 'today', offset: 0 }, date, ctx)).toEqual({ ok: true, cell: '2026-03-02' });
    expect(fitValue({ kind: 'now' }, date, ctx)).toEqual({ ok: true, cell: '2026-03-02T00:30' });
    expect(fitValue({ kind: 'date', value: '2026-02-30' }, date, ctx)).toMatchObject({ ok: false });
    expect(fitValue({ kind: 'datetime', value: '2026-02-28T24:00' }, date, ctx)).toMatchObject({ ok: false });
    const text = { name: 'T', type: 'text' as const };
    expect(fitValue({ kind: 'today', offset: -2 }, text, ctx)).toEqual({ ok: true, cell: 'today-2' });
    expect(fitValue({ kind: 'text', value: 'x'.repeat(11) }, text, ctx)).toMatchObject({
      ok: false,
      code: 'LIMIT_TEXT',
    });
    const bool = { name: 'B', type: 'bool' as const };
    expect(fitValue({ kind: 'text', value: 'TRUE' }, bool, ctx)).toEqual({ ok: true, cell: true });
    expect(fitValue({ kind: 'empty' }, bool, ctx)).toEqual({ ok: true, cell: null });
    expect(fitValue({ kind: 'text', value: 'yes' }, bool, ctx)).toEqual({
      ok: false,
      code: 'VALUE_DOES_NOT_FIT',
      message: "B is a bool column and 'yes' is not a bool; write B=on or B=off",
    });
  });

  it('reads numbers strictly', () => {
    expect(parseNumberText('-1.5e3')).toBe(-1500);
    expect(parseNumberText('1,5')).toBeUndefined();
    expect(parseNumberText('Infinity')).toBeUndefined();
    expect(writtenText({ kind: 'today', offset: 3 })).toBe('today+3');
  });
});

describe('convertCell', () => {
  it('converts what fits and empties the rest', () => {
    expect(convertCell(72.5, 'number', 'text')).toBe('72.5');
    expect(convertCell('72 kg', 'text', 'number', 'kg')).toBe(72);
    expect(convertCell('heavy', 'text', 'number')).toBeNull();
    expect(convertCell(true, 'bool', 'number')).toBe(1);
    expect(convertCell(2, 'number', 'bool')).toBeNull();
    expect(convertCell('2026-01-01', 'date', 'bool')).toBeNull();
    expect(convertCell('2026-01-01T10:00', 'text', 'date')).toBe('2026-01-01T10:00');
    expect(convertCell(null, 'text', 'number')).toBeNull();
  });
});
