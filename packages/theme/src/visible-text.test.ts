// visibleText: names and labels from agents and hosts keep what draws and lose what hides or turns text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasVisibleText, visibleText } from './visible-text.js';

const SCOTLAND = '\u{1f3f4}\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}';
const FAMILY = '👨\u200d👩\u200d👧';
const KEYCAP = '1\ufe0f\u20e3';

describe('visibleText (issue 46 item 6)', () => {
  it.each([
    ['ZWJ', '\u200d\u200d\u200d'],
    ['tag characters', '\u{e0001}\u{e0041}\u{e0042}\u{e007f}'],
    ['U+FE0F', '\ufe0f\ufe0f'],
    ['U+034F', '\u034f'],
    ['U+17B4', '\u17b4\u17b5'],
    ['their mix with spaces', ' \u200d \ufe0f\u034f \u{e0020}\u17b4 '],
    ['bidi controls', '\u202e\u202a\u2066\u200f'],
    ['controls (ESC, C1)', '\u001b\u009b\u0007'],
    ['combining marks alone', '\u0301\u0308'],
    ['blank-looking letters', '\u3164\u115f\u2800'],
    ['zero-width and word joiner', '\u200b\u2060\ufeff'],
  ])('refuses text made only of %s', (_, text) => {
    expect(visibleText(text)).toBeNull();
    expect(hasVisibleText(text)).toBe(false);
  });

  it('removes bidi controls and C0/C1 controls around visible text; line breaks become spaces', () => {
    expect(visibleText('Coach\u202egnp.exe')).toBe('Coachgnp.exe');
    expect(visibleText('\u001b[2J\u001b]0;pwned\u0007Weather')).toBe('[2J]0;pwnedWeather');
    expect(visibleText('Two\nlines\r\n\tand\u009b a CSI')).toBe('Two lines and a CSI');
    expect(visibleText('\u2067مساعد\u2069 bot')).toBe('مساعد bot');
  });

  it('drops tag characters that hide text, keeps an emoji flag whole', () => {
    // ASCII smuggled as tags reads "hi" to a model and draws nothing.
    expect(visibleText('Coach\u{e0068}\u{e0069}')).toBe('Coach');
    expect(visibleText(`Team ${SCOTLAND}`)).toBe(`Team ${SCOTLAND}`);
    expect(visibleText(SCOTLAND)).toBe(SCOTLAND);
  });

  it('keeps emoji sequences, keycaps and scripts that join with ZWJ', () => {
    expect(visibleText(`Family ${FAMILY}`)).toBe(`Family ${FAMILY}`);
    expect(visibleText(KEYCAP)).toBe(KEYCAP);
    expect(visibleText('❤\ufe0f')).toBe('❤\ufe0f');
    expect(visibleText('क्\u200dष')).toBe('क्\u200dष');
  });

  it('cuts to max grapheme clusters with an ellipsis, never inside an emoji sequence', () => {
    expect(visibleText('abcdef', { max: 4 })).toBe('abc…');
    expect(visibleText('abcd', { max: 4 })).toBe('abcd');
    expect(visibleText(`ab${FAMILY}${FAMILY}c`, { max: 4 })).toBe(`ab${FAMILY}…`);
  });

  it('never leaves a removed character, is idempotent, and agrees with hasVisibleText (property)', () => {
    const nasty = fc.constantFrom(
      '\u202e',
      '\u200d',
      '\ufe0f',
      '\u034f',
      '\u17b4',
      '\u001b',
      '\u009b',
      '\u{e0041}',
      '\u{e007f}',
      '\u{1f3f4}',
      '\u2066',
      '\u200b',
      '\u3164',
      ' ',
      '\n',
      'a',
      'é',
      'م',
      '👩',
      '\u0301',
      '\ud800',
    );
    fc.assert(
      fc.property(
        fc.array(fc.oneof(nasty, fc.string({ unit: 'grapheme', maxLength: 3 })), { maxLength: 12 }),
        (parts) => {
          const text = parts.join('');
          const out = visibleText(text);
          if (out === null) return;
          expect(out).not.toMatch(/[\p{Cc}\p{Cs}\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u17b4\u17b5]/u);
          expect(out).toBe(out.trim());
          expect(visibleText(out)).toBe(out);
          expect(hasVisibleText(out)).toBe(true);
          // Tags stay only inside a whole flag sequence.
          expect(out.replace(/\u{1f3f4}[\u{e0020}-\u{e007e}]+\u{e007f}/gu, '')).not.toMatch(
            /[\u{e0000}-\u{e007f}]/u,
          );
        },
      ),
      { numRuns: 500 },
    );
  });
});
