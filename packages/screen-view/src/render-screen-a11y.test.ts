// What the renderer does for people who use a keyboard or a screen reader: ids scoped to their screen,
// focus that never falls to the page body, a timer that counts down in words, emails checked, no colour-only cues.
import { catalog, parse } from '@screen-service/screen-lines';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isEmail } from './components/inputs.js';
import { spokenDuration, timerMarks } from './components/staged.js';
import { renderScreen } from './render-screen.js';
import type { ScreenTap } from './types.js';

afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

/** Every catalog example on one screen (the ids of a screen must differ, so they are given per line). */
const EVERY_EXAMPLE = Object.values(catalog)
  .flatMap((spec) => spec.examples)
  .filter((line) => !line.startsWith('query'))
  .map((line, i) => line.replace(/^(\w+)(@\w+)?/, `$1@c${i}`))
  .join('\n');

function show(lines: string, screen: string | undefined, taps: ScreenTap[] = []) {
  const { ops, errors } = parse(lines);
  expect(errors).toEqual([]);
  const handle = renderScreen(ops, { ...(screen ? { screen } : {}), onTap: (t) => taps.push(t) });
  document.body.append(handle.element);
  return handle;
}

const REFERENCES = ['for', 'aria-labelledby', 'aria-describedby', 'aria-controls'];

describe('ids are scoped to their screen', () => {
  it('two screens numbered from n1, and a screen drawn twice under one id, share no id', () => {
    show(EVERY_EXAMPLE, 's1');
    show(EVERY_EXAMPLE, 's2');
    show(EVERY_EXAMPLE, 's2'); // the same screen id again, as a playground redrawing would
    show(EVERY_EXAMPLE, undefined);
    const ids = [...document.querySelectorAll('[id]')].map((el) => el.id);
    expect(ids.length).toBeGreaterThan(40);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('every label and ARIA reference points inside its own screen', () => {
    const screens = [show(EVERY_EXAMPLE, 's1'), show(EVERY_EXAMPLE, 's2'), show(EVERY_EXAMPLE, 's2')];
    let checked = 0;
    for (const screen of screens) {
      for (const el of screen.element.querySelectorAll('*')) {
        for (const attr of REFERENCES) {
          const value = el.getAttribute(attr);
          if (!value) continue;
          for (const id of value.split(/\s+/)) {
            const target = document.getElementById(id);
            expect(target, `${attr}=${id}`).not.toBeNull();
            expect(screen.element.contains(target), `${attr}=${id} leaves its screen`).toBe(true);
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('ids carry the screen id, so a page can tell whose element it is', () => {
    const screen = show('checklist Read|Water', 'scr_9x');
    const box = screen.element.querySelector('input')!;
    expect(box.id).toMatch(/^svc-scr_9x-n1-/);
    expect(screen.element.dataset.scope).toBe('svc-scr_9x');
  });
});

describe('focus after an answer goes to what was answered', () => {
  it('the pressed button’s component echo takes the focus, and keeps it when the tap comes back', () => {
    const screen = show('choose@lunch "Lunch?" Soup|Salad', 's1');
    const salad = screen.element.querySelector<HTMLButtonElement>('[data-value="Salad"]')!;
    salad.focus();
    salad.click();
    const echo = screen.element.querySelector<HTMLElement>('.svc-echo')!;
    expect(document.activeElement).toBe(echo);
    screen.answer({ id: 'lunch', preset: 'choose', value: 'Salad', screen: 's1' });
    expect(document.activeElement).toBe(echo);
    expect(echo.textContent).toBe('✓ Salad');
  });

  it('an answer that arrives while the person is elsewhere leaves their focus alone', () => {
    const screen = show('choose@lunch "Lunch?" Soup|Salad\nask "Name?"', 's1');
    const field = screen.element.querySelector<HTMLInputElement>('input')!;
    field.focus();
    screen.answer({ id: 'lunch', preset: 'choose', value: 'Soup' });
    expect(document.activeElement).toBe(field);
  });

  it('opening the timer moves the focus from the vanishing pill to the clock', () => {
    const screen = show('timer 5m Stretch', 's1');
    const pill = screen.element.querySelector<HTMLButtonElement>('.svc-pill')!;
    pill.focus();
    pill.click();
    expect(document.activeElement).toBe(screen.element.querySelector('.svc-clock'));
    screen.destroy();
  });

  it('a redrawn component keeps the focus on the control with the same id', () => {
    const screen = show('buttons@go "Go?" A|B', 's1');
    const b = screen.element.querySelector<HTMLButtonElement>('[data-value="B"]')!;
    b.focus();
    const { ops } = parse('@go prompt="Now?"');
    screen.patch(ops[0] as never);
    // Buttons carry no id: the focus goes to the redrawn component itself, not to the body.
    expect(document.activeElement).toBe(screen.element.querySelector('[data-id="go"]'));
  });
});

describe('the timer speaks at sensible moments', () => {
  it('marks: every hour, then 30, 15, 10, 5, 2 and 1 minutes, 30 and 10 seconds, below its length', () => {
    expect(timerMarks(300)).toEqual([120, 60, 30, 10]);
    expect(timerMarks(7200)).toEqual([3600, 1800, 900, 600, 300, 120, 60, 30, 10]);
    expect(timerMarks(5)).toEqual([]);
    expect(spokenDuration(5400)).toBe('1 hour 30 minutes');
    expect(spokenDuration(60)).toBe('1 minute');
    expect(spokenDuration(10)).toBe('10 seconds');
  });

  it('its name counts down; the live line speaks at the start and at the marks, not every second', () => {
    vi.useFakeTimers();
    let now = 0;
    const { ops } = parse('timer 2m Stretch');
    const screen = renderScreen(ops, { onTap: () => {}, now: () => now });
    document.body.append(screen.element);
    const clock = screen.element.querySelector<HTMLElement>('[role="timer"]')!;
    const speak = screen.element.querySelector<HTMLElement>('[aria-live="polite"]')!;
    expect(clock.getAttribute('aria-label')).toBe('Stretch: 2:00');
    screen.element.querySelector<HTMLButtonElement>('.svc-pill')!.click();
    expect(speak.textContent).toBe('Stretch started: 2 minutes.');
    const heard: string[] = [];
    for (let s = 1; s <= 119; s++) {
      now = s * 1000;
      vi.advanceTimersByTime(1000);
      if (speak.textContent !== heard.at(-1) && speak.textContent !== 'Stretch started: 2 minutes.')
        heard.push(speak.textContent ?? '');
      if (s === 5) expect(clock.getAttribute('aria-label')).toBe('Stretch, running: 1:55 left');
    }
    expect(heard).toEqual([
      'Stretch: 1 minute left.',
      'Stretch: 30 seconds left.',
      'Stretch: 10 seconds left.',
    ]);
    screen.destroy();
  });
});

describe('ask type=email and form email fields check the address', () => {
  it('recognises addresses', () => {
    expect(isEmail('ana@example.com')).toBe(true);
    expect(isEmail('a.b+c@mail.example.org')).toBe(true);
    expect(isEmail('not-an-email')).toBe(false);
    expect(isEmail('ana@localhost')).toBe(false);
    expect(isEmail('ana @example.com')).toBe(false);
  });

  it('refuses "not-an-email" with a message tied to the field, then sends a real address', () => {
    const taps: ScreenTap[] = [];
    const screen = show('ask "Your email?" type=email', 's1', taps);
    const input = screen.element.querySelector<HTMLInputElement>('input')!;
    const form = screen.element.querySelector('form')!;
    input.value = 'not-an-email';
    form.requestSubmit();
    expect(taps).toEqual([]);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const message = document.getElementById(input.getAttribute('aria-describedby')!)!;
    expect(message.textContent).toContain('is not an email address');
    expect(document.activeElement).toBe(input);
    input.value = 'ana@example.com';
    input.dispatchEvent(new Event('input'));
    expect(input.hasAttribute('aria-invalid')).toBe(false);
    form.requestSubmit();
    expect(taps.map((t) => t.event.value)).toEqual(['ana@example.com']);
  });

  it('a form with a wrong email field is not sent', () => {
    const taps: ScreenTap[] = [];
    const screen = show('form "Contact" name:text mail:email', 's1', taps);
    const [name, mail] = [...screen.element.querySelectorAll<HTMLInputElement>('input')];
    name!.value = 'Ana';
    mail!.value = 'ana(at)example';
    screen.element.querySelector('form')!.requestSubmit();
    expect(taps).toEqual([]);
    expect(mail!.getAttribute('aria-invalid')).toBe('true');
  });
});

describe('no cue by colour alone', () => {
  it('a stat’s change says better or worse in words', () => {
    const screen = show(
      'stat 72.5 Weight unit=kg change=-0.4 good=down\nstat 3 Naps change=1 good=down',
      's1',
    );
    const [down, up] = [...screen.element.querySelectorAll('.svc-stat-change')];
    expect(down!.textContent).toBe('▼ -0.4 kg better');
    expect(up!.textContent).toBe('▲ +1 worse');
  });

  it('a picked rating fills its stars (★) and leaves the rest outlined (☆)', () => {
    const screen = show('checkin rating "Rate it"', 's1');
    screen.element.querySelector<HTMLButtonElement>('[data-value="3"]')!.click();
    const stars = [...screen.element.querySelectorAll('.svc-step')].map((b) => b.textContent).join('');
    expect(stars).toBe('★★★☆☆');
  });
});
