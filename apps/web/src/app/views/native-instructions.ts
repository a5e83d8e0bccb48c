// A native agent's instructions (its system prompt) in its settings: read, edit, save.
import type { NativeInstructionsView } from '@screen-service/person-api';
import { el } from '../../shared/dom.js';
import { call } from '../api.js';
import { problem } from '../shell.js';

/** The "Instructions" section of a native agent's settings. */
export function nativeInstructionsSection(agentId: string): HTMLElement {
  const section = el('section', { class: 'stack', 'aria-label': 'Instructions' });
  const status = el('div', { 'aria-live': 'polite' });
  void call<NativeInstructionsView>('GET', `/agents/${agentId}/instructions`)
    .then((n) => {
      const text = el('textarea', { id: 's-instructions', class: 'svc-input', rows: 8, maxlength: 8000 });
      text.value = n.instructions;
      const form = el(
        'form',
        { class: 'stack' },
        el('h2', {}, 'Instructions'),
        el(
          'p',
          { class: 'svc-muted small' },
          n.template ? `Started from the ${n.template} starter. ` : false,
          'The service runs this agent; its next answer follows what you write here.',
        ),
        el('label', { for: 's-instructions', class: 'sr-only' }, 'Instructions'),
        text,
        el('button', { type: 'submit', class: 'svc-btn svc-primary' }, 'Save instructions'),
        status,
      );
      form.addEventListener('submit', async (e) => {
        e.preventDefault();
        try {
          await call('PUT', `/agents/${agentId}/instructions`, { instructions: text.value });
          status.replaceChildren(el('p', { class: 'ok', role: 'status' }, 'Instructions saved.'));
        } catch (error) {
          status.replaceChildren(problem(error));
        }
      });
      section.replaceChildren(form);
    })
    .catch((error) => section.replaceChildren(problem(error)));
  return section;
}
