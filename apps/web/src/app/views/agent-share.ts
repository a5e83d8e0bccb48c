// An owned agent's Share section (doc2 shared agents): whether it can be shared and why not, make an invite
// link (the rules of `svc share send`), the people who hold it, and Revoke for each.
import type { GivenGrantView } from '@screen-service/core/sharing';
import { el } from '../../shared/dom.js';
import { type Agent, call } from '../api.js';
import { focusOn, problem } from '../shell.js';

/** What each broken rule means (doc2 "Client-safe"), as the owner reads it. */
const RULES: Record<string, string> = {
  profile: 'its own profile with no extra keys',
  sandbox: 'no terminal on the machine and no files outside a sandbox',
  reach: 'no reach into the rest of the machine',
  memory: 'memory off',
  runner: 'a model reached over an API',
  no_report: 'a host that sends a sandbox report',
};

/** The Share section and its reload (after an `agents` event: a claim, a revoke, a verdict that changed). */
export function shareSection(agent: Agent): { el: HTMLElement; reload: () => void } {
  const safety = el('p', { class: 'svc-muted small share-safety' });
  const firstName = el('input', { id: 'share-first-name', class: 'svc-input', maxlength: 40 });
  const make = el('button', { type: 'button', class: 'svc-btn' }, 'Make an invite');
  const made = el('div', { class: 'stack', 'aria-live': 'polite' });
  const holders = el('ul', {
    class: 'agent-list share-holders',
    'aria-label': `People who have ${agent.name}`,
  });
  const status = el('div', { 'aria-live': 'polite' });

  const showSafety = (why: string[] | null | undefined) => {
    safety.textContent =
      !why || why.length === 0
        ? `${agent.name} is client-safe: you can share it.`
        : `${agent.name} cannot be shared yet. It needs ${why.map((w) => RULES[w] ?? w).join('; ')}.`;
  };
  showSafety(agent.share_why);

  make.addEventListener('click', async () => {
    make.disabled = true;
    try {
      const name = firstName.value.trim();
      const invite = await call<{ link: string }>('POST', '/shares/invites', {
        agent_id: agent.id,
        ...(name ? { first_name: name } : {}),
      });
      const link = el('input', {
        id: 'share-link',
        class: 'svc-input share-link',
        readonly: true,
        value: invite.link,
      });
      made.replaceChildren(
        el('label', { for: 'share-link' }, 'Invite link (send it to the person; it works once)'),
        link,
      );
      focusOn(link);
      link.select();
    } catch (error) {
      // A refusal names the broken rule and what to do for this kind of agent.
      made.replaceChildren(problem(error));
    } finally {
      make.disabled = false;
    }
  });

  async function load() {
    try {
      const [{ grants }, fresh] = await Promise.all([
        call<{ grants: GivenGrantView[] }>('GET', '/shares/given'),
        call<Agent>('GET', `/agents/${agent.id}`),
      ]);
      showSafety(fresh.share_why);
      const live = grants.filter((g) => g.agent.id === agent.id && g.revoked_at === null);
      holders.replaceChildren(
        ...(live.length === 0
          ? [el('li', { class: 'empty' }, `Nobody has ${agent.name} yet.`)]
          : live.map((g) => holderRow(g))),
      );
    } catch (error) {
      holders.replaceChildren(el('li', {}, problem(error)));
    }
  }

  function holderRow(g: GivenGrantView): HTMLElement {
    const who = g.user.first_name ? `${g.user.first_name} (${g.user.email})` : g.user.email;
    const revoke = el(
      'button',
      { type: 'button', class: 'svc-btn', 'aria-label': `Revoke ${who}` },
      'Revoke',
    );
    revoke.addEventListener('click', async () => {
      revoke.disabled = true;
      try {
        await call('POST', '/shares/revoke', { agent_id: agent.id, user_id: g.user.id });
        await load();
        focusOn(holders);
      } catch (error) {
        status.replaceChildren(problem(error));
        revoke.disabled = false;
      }
    });
    return el(
      'li',
      { class: 'agent-row grant-row', 'data-grant': g.id },
      el('span', { class: 'agent-main' }, el('span', { class: 'agent-name' }, who)),
      revoke,
    );
  }

  void load();
  return {
    el: el(
      'section',
      { class: 'stack share-section', 'aria-labelledby': 'share-heading' },
      el('h2', { id: 'share-heading' }, 'Share'),
      safety,
      el(
        'div',
        { class: 'svc-field' },
        el('label', { for: 'share-first-name' }, 'Their first name (optional)'),
        firstName,
      ),
      make,
      made,
      el('h3', {}, 'People who have it'),
      holders,
      status,
    ),
    reload: () => void load(),
  };
}
