// Agent settings: name, colour, look, mute, default, a fresh pairing code, sharing, space its tables use, delete.
import { AGENT_COLORS, PRESET_NAMES } from '@screen-service/theme';
import { el } from '../../shared/dom.js';
import { applyLook } from '../../shared/look.js';
import { type Agent, call } from '../api.js';
import { removeAgentTables } from '../phone-tables.js';
import { focusOn, go, problem, type View } from '../shell.js';
import { codeCard } from './add-agent.js';
import { shareSection } from './agent-share.js';
import { agentTablesSection } from './agent-tables.js';
import { nativeInstructionsSection } from './native-instructions.js';
import { tablesUsage } from './tables-usage.js';

/**
 * A bridged agent's card (doc3): the remote agent's own name and its skills, one line each; none for others.
 * Each text the remote agent wrote sits in its own <bdi>, so a right-to-left name (or a direction override
 * stored before the server stripped them) cannot reorder the words around it.
 */
function cardSection(agent: Agent): HTMLElement | null {
  const card = agent.card;
  if (!card) return null;
  return el(
    'section',
    { class: 'stack agent-card', 'aria-label': 'Agent card' },
    el('h3', {}, 'Card: ', el('bdi', {}, card.name)),
    card.skills.length === 0
      ? el('p', { class: 'svc-muted small' }, 'No skills listed.')
      : el(
          'ul',
          { class: 'agent-skills' },
          ...card.skills.map((s) =>
            el(
              'li',
              {},
              el('strong', {}, el('bdi', {}, s.name)),
              s.description ? ' ' : '',
              s.description ? el('bdi', {}, s.description) : '',
            ),
          ),
        ),
  );
}

export function settingsView(agentId: string): View {
  const body = el('div', { class: 'stack narrow' });
  const status = el('div', { 'aria-live': 'polite' });
  let stop = () => {};
  let codeEvent: (type: string) => void = () => {};
  let reloadTables = () => {};
  let reloadShare = () => {};
  void (async () => {
    try {
      const agent = await call<Agent>('GET', `/agents/${agentId}`);
      applyLook(agent.theme, agent.handle);
      const name = el('input', {
        id: 's-name',
        class: 'svc-input',
        value: agent.name,
        maxlength: 40,
        required: true,
      });
      const colors = el(
        'fieldset',
        { class: 'colors' },
        el('legend', {}, 'Colour'),
        ...AGENT_COLORS.map((c) =>
          el(
            'label',
            { class: 'color-pick' },
            el('input', { type: 'radio', name: 'color', value: c, checked: agent.color === c }),
            ` ${c}`,
          ),
        ),
      );
      const look = el(
        'select',
        { id: 's-look', class: 'svc-input' },
        el('option', { value: '' }, 'Its own (from the name)'),
        ...PRESET_NAMES.map((p) => el('option', { value: p, selected: agent.theme.preset === p }, p)),
      );
      look.addEventListener('change', () =>
        applyLook(look.value ? { preset: look.value } : {}, agent.handle),
      );
      const picture = el(
        'fieldset',
        { class: 'colors' },
        el('legend', {}, 'Picture'),
        el(
          'label',
          { class: 'color-pick' },
          el('input', { type: 'radio', name: 'avatar', value: '', checked: agent.avatar !== 'svc' }),
          ' Its initial',
        ),
        el(
          'label',
          { class: 'color-pick' },
          el('input', { type: 'radio', name: 'avatar', value: 'svc', checked: agent.avatar === 'svc' }),
          ' The Screen Service mark',
        ),
      );
      const mute = el('input', { id: 's-mute', type: 'checkbox', checked: agent.push_muted });
      const form = el(
        'form',
        { class: 'stack' },
        el('div', { class: 'svc-field' }, el('label', { for: 's-name' }, 'Name'), name),
        colors,
        picture,
        el('div', { class: 'svc-field' }, el('label', { for: 's-look' }, 'Look'), look),
        el('label', { class: 'svc-check' }, mute, el('span', {}, 'Mute: never buzz my phone for this agent')),
        el('button', { type: 'submit', class: 'svc-btn svc-primary' }, 'Save'),
        status,
      );
      form.addEventListener('submit', async (e) => {
        e.preventDefault();
        const color = (form.querySelector('input[name=color]:checked') as HTMLInputElement | null)?.value;
        const avatar = (form.querySelector('input[name=avatar]:checked') as HTMLInputElement | null)?.value;
        const stamp = { by: 'user', at: new Date().toISOString() };
        try {
          await call('PATCH', `/agents/${agentId}`, {
            name: name.value.trim(),
            ...(color ? { color } : {}),
            avatar: avatar === 'svc' ? 'svc' : null,
            theme: look.value ? { preset: look.value, ...stamp } : stamp,
            push_muted: mute.checked,
          });
          status.replaceChildren(el('p', { class: 'ok', role: 'status' }, 'Saved.'));
        } catch (error) {
          status.replaceChildren(problem(error));
        }
      });
      // aria-disabled, not disabled: the button keeps the focus it was pressed with (a disabled one drops it).
      const makeDefault = el(
        'button',
        { type: 'button', class: 'svc-btn', 'aria-disabled': agent.is_default ? 'true' : undefined },
        agent.is_default ? 'This is the default agent' : 'Make default',
      );
      makeDefault.addEventListener('click', async () => {
        if (makeDefault.getAttribute('aria-disabled') === 'true') return;
        try {
          await call('PATCH', `/agents/${agentId}`, { is_default: true });
          makeDefault.setAttribute('aria-disabled', 'true');
          makeDefault.textContent = 'This is the default agent';
        } catch (error) {
          status.replaceChildren(problem(error));
        }
      });
      const code = el('button', { type: 'button', class: 'svc-btn' }, 'New pairing code');
      code.addEventListener('click', async () => {
        try {
          const pairing = await call<{ code: string; expires_at: string }>('POST', `/agents/${agentId}/code`);
          stop();
          const card = codeCard(agentId, pairing, agent);
          stop = card.stop;
          codeEvent = card.onEvent;
          code.replaceWith(card.el);
          focusOn(card.el.querySelector<HTMLElement>('output.code'));
        } catch (error) {
          status.replaceChildren(problem(error));
        }
      });
      const del = el('button', { type: 'button', class: 'svc-btn danger' }, 'Delete agent and thread');
      del.addEventListener('click', async () => {
        if (!confirm(`Delete ${agent.name} and its whole thread?`)) return;
        const keep = confirm(`Keep ${agent.name}'s tables for 30 days, to give them to another agent?`);
        try {
          await call('DELETE', `/agents/${agentId}${keep ? '?keep_tables=true' : ''}`);
          // This device's copy of the agent's tables goes with it (the service kept or deleted them).
          await removeAgentTables(agentId).catch(() => {});
          go('#/');
        } catch (error) {
          status.replaceChildren(problem(error));
        }
      });
      const tablesPart = agentTablesSection(agentId);
      reloadTables = tablesPart.reload;
      // A native agent runs on the service: it has instructions instead of a pairing code.
      const hosted = agent.kind === 'hosted';
      // Only the owner shares an agent (a holder cannot pass it on).
      const share = agent.shared ? null : shareSection(agent);
      reloadShare = share?.reload ?? reloadShare;
      body.replaceChildren(
        ...[cardSection(agent)].filter((x): x is HTMLElement => x !== null),
        form,
        el('div', { class: 'row' }, makeDefault, ...(hosted ? [] : [code])),
        el('hr'),
        ...(hosted ? [nativeInstructionsSection(agentId), el('hr')] : []),
        ...(share ? [share.el, el('hr')] : []),
        tablesPart.el,
        tablesUsage(agentId),
        el('hr'),
        del,
      );
    } catch (error) {
      body.replaceChildren(problem(error));
    }
  })();
  return {
    title: 'Agent settings',
    back: `#/a/${agentId}`,
    body,
    leave: () => stop(),
    onEvent: (type) => {
      if (type === 'tables') reloadTables();
      if (type === 'agents') reloadShare();
      codeEvent(type);
    },
  };
}
