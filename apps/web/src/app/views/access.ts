// Agent access: management tokens (doc2 `svc_mt_`) for programs that add and edit agents for the person.
// Create with a name (the token is shown once, with Copy), list with last use, revoke.
import { el } from '../../shared/dom.js';
import { type ManagementToken, manage } from '../api.js';
import { ago, focusOn, problem, type View } from '../shell.js';

/** The card that shows a new token once; it never comes back from the server. */
function shownOnce(name: string, token: string): HTMLElement {
  const value = el('input', {
    id: 'new-token',
    class: 'svc-input token-value',
    value: token,
    readonly: true,
    'aria-label': `Token for ${name}`,
  });
  const copied = el('span', { class: 'svc-muted small', role: 'status' });
  const copy = el('button', { type: 'button', class: 'svc-btn svc-primary' }, 'Copy');
  copy.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(token);
      copied.textContent = 'Copied.';
    } catch {
      // No clipboard permission (an embedded view, an old browser): select it for a manual copy.
      value.select();
      copied.textContent = 'Selected: copy it with your keyboard or menu.';
    }
  });
  return el(
    'section',
    { class: 'code-card token-card', 'aria-label': 'New token' },
    el('p', {}, `Token for ${name}. Copy it now: it is shown only this once.`),
    value,
    el('div', { class: 'row' }, copy, copied),
    el(
      'p',
      { class: 'svc-muted small' },
      'It can list, add, edit, reorder and delete your agents and make pairing codes. It cannot read your messages, manage tokens, remove computers or delete your account.',
    ),
  );
}

export function accessView(): View {
  const list = el('ul', { class: 'conn-list token-list', 'aria-label': 'Management tokens' });
  const fresh = el('div', { 'aria-live': 'polite' });
  const name = el('input', { id: 't-name', class: 'svc-input', maxlength: 40, required: true });
  const status = el('div', { 'aria-live': 'polite' });
  const form = el(
    'form',
    { class: 'stack' },
    el('div', { class: 'svc-field' }, el('label', { for: 't-name' }, 'Name (what will use it)'), name),
    el('button', { type: 'submit', class: 'svc-btn svc-primary' }, 'Create token'),
    status,
  );

  const load = async () => {
    try {
      const { tokens } = await manage<{ tokens: ManagementToken[] }>('token_list');
      const live = tokens.filter((t) => !t.revoked_at);
      list.replaceChildren(
        ...(live.length === 0
          ? [el('li', { class: 'empty' }, 'No tokens. Create one for a program that manages your agents.')]
          : live.map((t) => {
              const revoke = el('button', { type: 'button', class: 'svc-btn danger' }, 'Revoke');
              revoke.setAttribute('aria-label', `Revoke ${t.name}`);
              revoke.addEventListener('click', async () => {
                if (!confirm(`Revoke ${t.name}? Programs using it stop at once.`)) return;
                try {
                  await manage('token_revoke', { id: t.id });
                  await load();
                  focusOn(list);
                } catch (error) {
                  status.replaceChildren(problem(error));
                }
              });
              return el(
                'li',
                { class: 'conn', 'data-token': t.id },
                el(
                  'div',
                  {},
                  el('p', { class: 'agent-name' }, t.name),
                  el(
                    'p',
                    { class: 'svc-muted small token-used' },
                    `Created ${ago(t.created_at)} · ${t.last_used_at ? `last used ${ago(t.last_used_at)}` : 'never used'}`,
                  ),
                ),
                revoke,
              );
            })),
      );
    } catch (error) {
      list.replaceChildren(el('li', {}, problem(error)));
    }
  };

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      const made = await manage<{ token: string; management_token: ManagementToken }>('token_create', {
        name: name.value,
      });
      fresh.replaceChildren(shownOnce(made.management_token.name, made.token));
      focusOn(fresh.querySelector<HTMLElement>('#new-token'));
      name.value = '';
      status.replaceChildren();
      await load();
    } catch (error) {
      status.replaceChildren(problem(error));
    }
  });
  void load();
  return {
    title: 'Agent access',
    back: '#/',
    body: el(
      'div',
      { class: 'stack narrow' },
      el(
        'p',
        { class: 'svc-muted' },
        'A management token lets a program (an agent, a script) add and edit your agents with the management API.',
      ),
      form,
      fresh,
      el('h2', { class: 'small-head' }, 'Tokens'),
      list,
    ),
  };
}
