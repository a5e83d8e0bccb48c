// Tests of tap-line: behaviour through the public functions, with real inputs.
import { describe, expect, test } from 'vitest';
import type { TapEvent } from './ops.js';
import { formatEcho, formatTapLine, parseTapLine } from './tap-line.js';

describe('tap lines', () => {
  test('the [svc] line then the event JSON', () => {
    const event = { id: 'lunch', preset: 'choose', value: 'Soup' };
    expect(formatTapLine(event)).toBe(
      '[svc] lunch choose choice=Soup\n{"id":"lunch","preset":"choose","value":"Soup"}',
    );
  });

  test.each<TapEvent>([
    { id: 'n1', preset: 'timer', value: 'done', seconds: 300 },
    { id: 'n2', preset: 'choose', value: ['Hot soup', 'Salad'] },
    { id: 'n3', preset: 'form', value: { name: 'Ana Lee', age: 31 }, screen: 's1' },
    { id: 'n4', preset: 'confirm', value: false, label: 'No' },
    { id: 'n5', preset: 'photo', value: 2, photos: ['https://a/1.jpg', 'https://a/2.jpg'] },
    { id: 'q', preset: 'query', value: 2, op: 'query', table: 'w', cols: ['A'], rows: [[1], [2]], count: 2 },
  ])('round trip of $preset', (event) => {
    expect(parseTapLine(formatTapLine(event))).toEqual(event);
  });

  test('a form flattens to key=value pairs, so the line alone is readable', () => {
    const line = formatTapLine({ id: 'n3', preset: 'form', value: { name: 'Ana Lee', age: 31 } }).split(
      '\n',
    )[0]!;
    expect(line).toBe('[svc] n3 form name="Ana Lee" age=31');
    expect(parseTapLine(line)).toEqual({ id: 'n3', preset: 'form', value: { name: 'Ana Lee', age: 31 } });
  });

  test('the line alone (JSON dropped or broken) still gives the event', () => {
    expect(parseTapLine('[svc] lunch choose choice=Soup')).toEqual({
      id: 'lunch',
      preset: 'choose',
      value: 'Soup',
    });
    expect(parseTapLine('[svc] n2 choose choice=Soup|Salad\n{broken')).toEqual({
      id: 'n2',
      preset: 'choose',
      value: ['Soup', 'Salad'],
    });
    expect(parseTapLine('[svc] n1 checkin mood=4')).toEqual({ id: 'n1', preset: 'checkin', value: 4 });
  });

  test('not a tap line gives null', () => {
    expect(parseTapLine('hello')).toBeNull();
    expect(parseTapLine('')).toBeNull();
    expect(parseTapLine(7 as unknown as string)).toBeNull();
  });

  test('echo text', () => {
    expect(formatEcho({ id: 'a', preset: 'choose', value: 'Soup' })).toBe('Soup');
    expect(formatEcho({ id: 'a', preset: 'photo', value: 3 })).toBe('3 photos');
    expect(formatEcho({ id: 'a', preset: 'checklist', value: ['Keys', 'Phone'] })).toBe('Keys, Phone');
  });
});
