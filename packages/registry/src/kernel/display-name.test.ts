import { describe, expect, it } from 'vitest';
import { agentName, hostName } from '../agents/validate.js';
import { cleanDisplayName } from './display-name.js';

describe('names people read (issue 22 item 12)', () => {
  it('drops control and direction characters and keeps emoji sequences whole', () => {
    expect(cleanDisplayName('Coach\u202egnp.exe')).toBe('Coachgnp.exe');
    expect(cleanDisplayName(' Bad\u0007\u0000  \t Name\u2067 ')).toBe('Bad Name');
    expect(cleanDisplayName('Family 👨\u200d👩\u200d👧')).toBe('Family 👨\u200d👩\u200d👧');
    expect(cleanDisplayName('مساعد')).toBe('مساعد');
  });

  it('refuses names made only of invisible or blank-looking characters', () => {
    for (const blank of ['\u200b', '\u3164\u3164', '\u2800', '\u202e\u202c', '\u00ad \u2060']) {
      expect(cleanDisplayName(blank)).toBeNull();
      expect(() => agentName(blank)).toThrow(/1 to 40 visible characters/);
      expect(() => hostName(blank)).toThrow(/visible characters/);
    }
    expect(agentName('\u202eCoach')).toBe('Coach');
  });

  it.each([
    ['U+200D', '\u200d\u200d'],
    ['tag characters', '\u{e0001}\u{e0041}\u{e007f}'],
    ['U+FE0F', '\ufe0f'],
    ['U+034F', '\u034f\u034f'],
    ['U+17B4', '\u17b4'],
    ['a mix of them', '\u200d \ufe0f\u{e0041}\u034f\u17b4'],
  ])('refuses a name made only of %s with an error that says so (issue 46 item 6)', (_, blank) => {
    expect(cleanDisplayName(blank)).toBeNull();
    expect(() => agentName(blank)).toThrow(
      'name must be 1 to 40 visible characters (this one has no visible character: only spaces, joiners, marks or invisible characters).',
    );
    expect(() => hostName(blank)).toThrow(
      /host_name must be 1 to 80 visible characters .*no visible character/,
    );
  });

  it('strips stray tag characters and C1 controls but keeps emoji flags and keycaps', () => {
    expect(agentName('Coach\u{e0069}\u{e0067}\u{e006e}')).toBe('Coach');
    expect(agentName('Bot\u009b31m')).toBe('Bot31m');
    const scotland = '\u{1f3f4}\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}';
    expect(agentName(`Team ${scotland}`)).toBe(`Team ${scotland}`);
    expect(agentName('1\ufe0f\u20e3')).toBe('1\ufe0f\u20e3');
  });
});
