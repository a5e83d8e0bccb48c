// Settings › Notifications › When to buzz (issue 39): quiet hours, urgent questions through them, and how
// often one agent may buzz with something that needs no answer. Saved on each change, in plain words.
import { el } from '../../shared/dom.js';
import { call } from '../api.js';
import type { AttentionSettings } from '../push-device.js';
import { problem } from '../shell.js';

const BUDGETS: [number, string][] = [
  [1, 'At most one an hour from each agent'],
  [4, 'At most four an hour from each agent'],
  [0, 'Every one'],
];

/** The "When to buzz" section; `settings` is what `GET /push` answered. */
export function attentionSection(settings: AttentionSettings): HTMLElement {
  const quiet = el('input', { type: 'checkbox', role: 'switch', class: 'switch', id: 'n-quiet' });
  quiet.checked = settings.quiet_hours !== null;
  const from = el('input', {
    type: 'time',
    id: 'n-quiet-from',
    value: settings.quiet_hours?.start ?? '22:00',
  });
  const until = el('input', {
    type: 'time',
    id: 'n-quiet-until',
    value: settings.quiet_hours?.end ?? '07:00',
  });
  const urgent = el('input', { type: 'checkbox', role: 'switch', class: 'switch', id: 'n-urgent' });
  urgent.checked = settings.allow_urgent;
  const budget = el(
    'select',
    { id: 'n-budget' },
    ...BUDGETS.map(([n, label]) => el('option', { value: String(n) }, label)),
  );
  budget.value = String(settings.plain_per_hour);
  const saved = el('p', { class: 'svc-muted small', id: 'n-saved', 'aria-live': 'polite' });
  const times = el(
    'div',
    { class: 'quiet-times' },
    el('label', { for: from.id }, 'From '),
    from,
    el('label', { for: until.id }, ' until '),
    until,
  );
  const draw = () => {
    times.hidden = !quiet.checked;
    urgent.disabled = !quiet.checked;
  };
  const save = async () => {
    draw();
    saved.textContent = 'Saving…';
    try {
      await call('PUT', '/push/settings', {
        quiet_hours: quiet.checked ? { start: from.value, end: until.value } : null,
        allow_urgent: urgent.checked,
        plain_per_hour: Number(budget.value),
      });
      saved.textContent = 'Saved.';
      saved.dataset.saved = String(Date.now());
    } catch (error) {
      saved.replaceChildren(problem(error));
    }
  };
  for (const input of [quiet, from, until, urgent, budget])
    input.addEventListener('change', () => void save());
  draw();
  const row = (input: HTMLElement, label: string, note?: string) =>
    el(
      'li',
      { class: 'setting' },
      el(
        'div',
        { class: 'setting-text' },
        el('label', { for: input.id }, label),
        note ? el('p', { class: 'svc-muted small' }, note) : null,
      ),
      input,
    );
  return el(
    'section',
    { 'aria-labelledby': 'n-when' },
    el('h2', { id: 'n-when' }, 'When to buzz'),
    el(
      'p',
      { class: 'svc-muted small' },
      'While you are using this app on one of your devices, none of them buzzes: you see new messages here.',
    ),
    el(
      'ul',
      { class: 'settings-list' },
      row(quiet, 'Quiet hours', 'Questions wait silently until the quiet hours end (your time zone).'),
      el('li', { class: 'setting' }, times),
      row(
        urgent,
        'Let urgent questions through',
        'An agent may mark a question urgent; it then buzzes anyway.',
      ),
      row(budget, 'Updates that need no answer', 'The rest are gathered into the next notification.'),
    ),
    saved,
  );
}
