// Native agents on the add page: starters the service runs itself (one tap each), and a blank agent
// with instructions the person writes. Shown only when the operator configured a model.
import type { NativeStarterView } from '@screen-service/person-api';
import { el } from '../../shared/dom.js';
import { type Agent, call } from '../api.js';
import { chip, go, problem } from '../shell.js';

interface Offer {
  available: boolean;
  starters: NativeStarterView[];
}

async function add(body: Record<string, unknown>, status: HTMLElement): Promise<void> {
  try {
    const agent = await call<Agent>('POST', '/native/agents', body);
    go(`#/a/${agent.id}`);
  } catch (error) {
    status.replaceChildren(problem(error));
  }
}

function starterCard(s: NativeStarterView, status: HTMLElement): HTMLElement {
  const button = el('button', { type: 'button', class: 'svc-btn svc-primary' }, `Add ${s.name}`);
  button.addEventListener('click', () => {
    button.disabled = true;
    void add({ starter: s.id }, status).finally(() => {
      button.disabled = false;
    });
  });
  return el(
    'li',
    { class: 'conn', 'data-starter': s.id },
    chip({ name: s.name, color: s.color }),
    el(
      'div',
      {},
      el('p', { class: 'agent-name' }, s.name),
      el('p', { class: 'svc-muted small' }, s.description),
      s.tables.length > 0
        ? el('p', { class: 'svc-muted small' }, `Starts with: ${s.tables.join(', ')}`)
        : false,
    ),
    button,
  );
}

function blankForm(status: HTMLElement): HTMLElement {
  const name = el('input', { id: 'native-name', class: 'svc-input', required: true, maxlength: 40 });
  const text = el('textarea', {
    id: 'native-instructions',
    class: 'svc-input',
    required: true,
    maxlength: 8000,
    rows: 5,
    placeholder: 'What it is for and how it answers, e.g. "Plan my meals for the week; ask before adding."',
  });
  const form = el(
    'form',
    { class: 'stack', 'aria-label': 'Blank agent' },
    el('div', { class: 'svc-field' }, el('label', { for: 'native-name' }, 'Name'), name),
    el('div', { class: 'svc-field' }, el('label', { for: 'native-instructions' }, 'Instructions'), text),
    el('button', { type: 'submit', class: 'svc-btn' }, 'Add blank agent'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void add({ name: name.value.trim(), instructions: text.value }, status);
  });
  return form;
}

/** The section, empty until the offer arrives (and empty for good when the service runs no model). */
export function nativeAddSection(): HTMLElement {
  const section = el('section', { class: 'stack', 'aria-label': 'Agents the service runs' });
  const status = el('div', { 'aria-live': 'polite' });
  void call<Offer>('GET', '/native')
    .then((offer) => {
      if (!offer.available) return;
      section.replaceChildren(
        el('h2', {}, 'Agents the service runs for you'),
        el('p', { class: 'svc-muted small' }, 'No computer of your own needed: add one in a tap.'),
        el(
          'ul',
          { class: 'conn-list', 'aria-label': 'Starter agents' },
          ...offer.starters.map((s) => starterCard(s, status)),
        ),
        el('h3', {}, 'Or a blank agent'),
        blankForm(status),
        status,
        el('hr'),
        el('h2', {}, 'An agent that runs elsewhere'),
      );
    })
    .catch(() => {
      // Without the offer the page is the pairing form alone, as before.
    });
  return section;
}
