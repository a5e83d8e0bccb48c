// Tests of the scanner: the tokens it makes from real inputs.
import { describe, expect, test } from 'vitest';
import { tokenize } from './scan.js';

const kinds = (text: string) => tokenize(text).map((t) => `${t.type}:${t.image}`);

describe('scanner', () => {
  test('types values: numbers, dates, today, now, on/off; spaces are skipped', () => {
    expect(kinds('72.5 -3 2026-11-21 2026-11-21T08:30 today today-3 today+2 now on off')).toEqual([
      'NumberLit:72.5',
      'NumberLit:-3',
      'DateDay:2026-11-21',
      'DateTime:2026-11-21T08:30',
      'Today:today',
      'Today:today-3',
      'Today:today+2',
      'Now:now',
      'OnOff:on',
      'OnOff:off',
    ]);
  });

  test('longer words win over typed prefixes', () => {
    expect(kinds('5m todays nowhere one offset 1.2.3 2026-11-21T08:30:00Z')).toEqual([
      'Word:5m',
      'Word:todays',
      'Word:nowhere',
      'Word:one',
      'Word:offset',
      'Word:1.2.3',
      'Word:2026-11-21T08:30:00Z',
    ]);
  });

  test('quotes, pipes, operators, flags, ids', () => {
    expect(kinds('choose@lunch "a \\"b\\"" x|y Col>=3 +Done')).toEqual([
      'Word:choose',
      'At:@lunch',
      'Quoted:"a \\"b\\""',
      'Word:x',
      'Pipe:|',
      'Word:y',
      'Word:Col',
      'Op:>=',
      'NumberLit:3',
      'Plus:+',
      'Word:Done',
    ]);
  });

  test('an unterminated quote and stray characters still lex; nothing is a lexer error', () => {
    expect(tokenize('"open ! ` \u0000 é\u2028x')[0]!.type).toBe('OpenQuote');
    expect(tokenize('a ! b').map((t) => t.type)).toEqual(['Word', 'Other', 'Word']);
  });
});
