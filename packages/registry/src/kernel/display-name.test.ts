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
});
