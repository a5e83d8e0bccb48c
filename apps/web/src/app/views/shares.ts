// The owner's shared agents: who holds each grant (never their threads), with Revoke.
import type { GivenGrantView } from '@screen-service/core/sharing';
import { el } from '../../shared/dom.js';
import { call } from '../api.js';
import { focusOn, problem, type View } from '../shell.js';

export function sharesView(): View {
  const list = el('ul', { class: 'agent-list', 'aria-label': 'People you share agents with' });
  const status = el('div', { 'aria-live': 'polite' });
  const load = async () => {
    try {
      const { grants } = await call<{ grants: GivenGrantView[] }>('GET', '/shares/given');
      const live = grants.filter((g) => g.revoked_at === null);
      list.replaceChildren(
        ...(live.length === 0
          ? [
              el(
                'li',
                { class: 'empty' },
                "You share no agent with anyone. Open an agent's settings and use Share to make an invite.",
              ),
            ]
          : live.map((g) => {
              const revoke = el('button', { type: 'button', class: 'svc-btn' }, 'Revoke');
              revoke.addEventListener('click', async () => {
                revoke.disabled = true;
                try {
                  await call('POST', '/shares/revoke', { agent_id: g.agent.id, user_id: g.user.id });
                  await load();
                  focusOn(list);
                } catch (error) {
                  status.replaceChildren(problem(error));
                  revoke.disabled = false;
                }
              });
              const who = g.user.first_name ? `${g.user.first_name} (${g.user.email})` : g.user.email;
              return el(
                'li',
                { class: 'agent-row grant-row', 'data-grant': g.id },
                el(
                  'span',
                  { class: 'agent-main' },
                  el('span', { class: 'agent-name' }, g.agent.name),
                  el('span', { class: 'svc-muted small' }, `held by ${who}`),
                ),
                revoke,
              );
            })),
      );
    } catch (error) {
      list.replaceChildren(el('li', {}, problem(error)));
    }
  };
  void load();
  return {
    title: 'Shared agents',
    back: '#/',
    body: el('div', { class: 'stack' }, status, list),
    onEvent: (type) => (type === 'agents' ? void load() : undefined),
  };
}
