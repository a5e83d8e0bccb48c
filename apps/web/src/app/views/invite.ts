// The invite claim page: what is shared and by whom; Accept claims it (one agent per client-safe item).
import type { ClaimResult, InvitePreview } from '@screen-service/core/sharing';
import { el } from '../../shared/dom.js';
import { call } from '../api.js';
import { go, problem, type View } from '../shell.js';

export function inviteView(token: string): View {
  const body = el('div', { class: 'stack narrow' }, el('p', { class: 'svc-muted' }, 'Opening the invite…'));
  void (async () => {
    try {
      const p = await call<InvitePreview>('GET', `/invites/${encodeURIComponent(token)}`);
      const accept = el('button', { type: 'button', class: 'svc-btn svc-primary' }, 'Accept');
      const status = el('div', { 'aria-live': 'polite' });
      accept.addEventListener('click', async () => {
        accept.disabled = true;
        try {
          const r = await call<ClaimResult>('POST', `/invites/${encodeURIComponent(token)}/claim`);
          const first = r.granted[0];
          go(first ? `#/a/${first.agent_id}` : '#/');
        } catch (error) {
          status.replaceChildren(problem(error));
          accept.disabled = false;
        }
      });
      body.replaceChildren(
        el(
          'p',
          { class: 'lead' },
          `${p.first_name ? `Hi ${p.first_name}! ` : ''}${p.shared_by} shares with you:`,
        ),
        el('h2', {}, p.title),
        el('ul', { class: 'invite-agents' }, ...p.agents.map((a) => el('li', {}, a.name))),
        p.claimable ? accept : el('p', { class: 'problem', role: 'alert' }, 'This invite was already used.'),
        el('p', { class: 'hint' }, `The link works until ${new Date(p.expires_at).toLocaleDateString()}.`),
        status,
      );
    } catch (error) {
      body.replaceChildren(problem(error));
    }
  })();
  return { title: 'Invite', back: '#/', body };
}
