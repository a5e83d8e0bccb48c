// A bridged agent's card as the owner and holders read it: nothing that hides text or turns the text around it.
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../kernel/errors.js';
import { cleanCardSummary } from './card-summary.js';

describe('cleanCardSummary (issue 46 item 6)', () => {
  it('strips bidi controls and C0/C1 controls (ESC) from the name, skills and descriptions', () => {
    expect(
      cleanCardSummary({
        name: 'Weather\u202e gnp.exe',
        skills: [
          {
            name: '\u2066Forecast\u2069',
            description: 'Says the weather\u001b[2J\u001b]0;owned\u0007 today',
          },
          { name: 'Alerts\u009b', description: '\u200f\u202bStorms\u202c' },
        ],
      }),
    ).toEqual({
      name: 'Weather gnp.exe',
      skills: [
        { name: 'Forecast', description: 'Says the weather[2J]0;owned today' },
        { name: 'Alerts', description: 'Storms' },
      ],
    });
  });

  it('refuses a card name with nothing visible; drops invisible skills and descriptions', () => {
    for (const blank of [
      '\u200d\u200d',
      '\u{e0041}\u{e0042}',
      '\ufe0f',
      '\u034f',
      '\u17b4',
      '\u202e\u001b',
    ]) {
      const error = (() => {
        try {
          cleanCardSummary({ name: blank, skills: [] });
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(ServiceError);
      expect((error as ServiceError).message).toMatch(/^card\.name has no visible character/);
    }
    expect(
      cleanCardSummary({
        name: 'Helper',
        skills: [{ name: '\u200d\ufe0f' }, { name: 'Real', description: '\u{e0068}\u{e0069}' }],
      }),
    ).toEqual({ name: 'Helper', skills: [{ name: 'Real' }] });
  });

  it('cuts long texts to one line with an ellipsis, never inside an emoji', () => {
    const card = cleanCardSummary({ name: `${'A'.repeat(79)}👩‍💻 more`, skills: [] })!;
    expect(card.name).toBe(`${'A'.repeat(79)}…`);
  });
});
