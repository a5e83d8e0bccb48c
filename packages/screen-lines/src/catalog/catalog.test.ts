// Tests of catalog: behaviour through the public functions, with real inputs.
import { describe, expect, test } from 'vitest';
import { format } from '../format.js';
import { parse } from '../parse.js';
import { formatTapLine, parseTapLine } from '../tap-line.js';
import { catalog, componentOf } from './index.js';

describe('catalog', () => {
  test('holds every component the issue lists', () => {
    expect(Object.keys(catalog)).toEqual([
      'text',
      'timer',
      'choose',
      'confirm',
      'buttons',
      'checkin',
      'checklist',
      'ask',
      'form',
      'photo',
      'image',
      'gallery',
      'deck',
      'chart',
      'stat',
      'progress',
      'math',
      'link',
      'divider',
      'query',
    ]);
  });

  test.each(Object.values(catalog))('$name: examples parse to it, meet its schema and round-trip', (spec) => {
    for (const example of spec.examples) {
      const { ops, errors } = parse(example);
      expect(errors, example).toEqual([]);
      expect(ops[0]).toMatchObject({ op: 'add', preset: spec.name });
      expect(spec.props.safeParse((ops[0] as { props: unknown }).props).success).toBe(true);
      expect(parse(format(ops)).ops).toStrictEqual(ops);
    }
  });

  test.each(Object.values(catalog))(
    '$name: event examples carry its preset and survive the tap line',
    (spec) => {
      for (const event of spec.events) {
        expect(event.example.preset).toBe(spec.name);
        expect(parseTapLine(formatTapLine(event.example))).toEqual(event.example);
      }
    },
  );

  test('staged and quiet flags as the spec says', () => {
    expect(
      Object.values(catalog)
        .filter((s) => s.staged)
        .map((s) => s.name),
    ).toEqual(['timer', 'deck']);
    expect(catalog.checklist!.events.find((e) => e.quiet)?.when).toMatch(/tick/);
    expect(catalog.timer!.events.find((e) => e.quiet)?.when).toMatch(/start/);
  });

  test('componentOf only finds own names', () => {
    expect(componentOf('choose')?.name).toBe('choose');
    expect(componentOf('constructor')).toBeUndefined();
    expect(componentOf('toString')).toBeUndefined();
  });
});
