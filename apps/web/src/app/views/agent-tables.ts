// An agent's relay tables in its settings: rows, last read, give to another agent, take away, delete; kept tables.
import type { RelayTable } from '@screen-service/person-api';
import { el } from '../../shared/dom.js';
import { type Agent, call } from '../api.js';
import { focusOn, problem } from '../shell.js';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'never');

/** The "Tables" section of an agent's settings; `reload` redraws it (after a change, or a live `tables` event). */
export function agentTablesSection(agentId: string): { el: HTMLElement; reload(): void } {
  const section = el('section', { class: 'stack', 'aria-label': 'Tables' });
  const status = el('div', { 'aria-live': 'polite' });

  async function act(method: string, path: string, body: unknown, done: string) {
    try {
      await call(method, path, body);
      status.replaceChildren(el('p', { class: 'ok', role: 'status' }, done));
      await load();
      // The row the pressed button was in was redrawn: back to the section's heading.
      focusOn(section.querySelector<HTMLElement>('h2'));
    } catch (error) {
      status.replaceChildren(problem(error));
    }
  }

  function row(t: RelayTable, others: Agent[]): HTMLElement {
    const ref = { table: t.name, from: t.holder };
    const to = el(
      'select',
      { class: 'svc-input', 'aria-label': `Give ${t.name} to` },
      ...others.map((a) => el('option', { value: a.id }, a.name)),
    );
    const give = el('button', { type: 'button', class: 'svc-btn' }, 'Give');
    give.setAttribute('aria-label', `Give ${t.name}`);
    give.addEventListener('click', () => {
      const target = others.find((a) => a.id === to.value);
      void act(
        'POST',
        '/tables/give',
        { ...ref, to: to.value },
        `${t.name} now belongs to ${target?.name ?? 'the agent'}.`,
      );
    });
    const take = el('button', { type: 'button', class: 'svc-btn' }, 'Take away');
    // The visible words first, then the table: a spoken name that contains what is seen (WCAG 2.5.3).
    take.setAttribute('aria-label', `Take away ${t.name}`);
    take.addEventListener('click', () =>
      act('POST', '/tables/take', ref, `${t.name} is kept for 30 days; give it to an agent to keep it.`),
    );
    const del = el('button', { type: 'button', class: 'svc-btn danger' }, 'Delete');
    del.setAttribute('aria-label', `Delete ${t.name}`);
    del.addEventListener('click', () => {
      if (confirm(`Delete ${t.name} and its ${t.rows} rows?`))
        void act('POST', '/tables/delete', ref, `${t.name} deleted.`);
    });
    return el(
      'li',
      { class: 'conn', 'data-table': t.name },
      el(
        'div',
        {},
        el('p', { class: 'agent-name' }, t.name, el('span', { class: 'tag' }, `${t.rows} rows`)),
        el('p', { class: 'svc-muted small' }, `${t.cols.join(', ')} · last read ${when(t.last_read_at)}`),
      ),
      el('div', { class: 'row' }, ...(others.length > 0 ? [to, give] : []), take, del),
    );
  }

  function kept(t: RelayTable): HTMLElement {
    const take = el('button', { type: 'button', class: 'svc-btn' }, 'Give to this agent');
    take.setAttribute('aria-label', `Give ${t.name} to this agent`);
    take.addEventListener('click', () =>
      act(
        'POST',
        '/tables/give',
        { table: t.name, from: t.holder, to: agentId },
        `${t.name} given to this agent.`,
      ),
    );
    return el(
      'li',
      { class: 'conn', 'data-table': t.name },
      el(
        'div',
        {},
        el('p', { class: 'agent-name' }, t.name, el('span', { class: 'tag' }, `${t.rows} rows`)),
        el('p', { class: 'svc-muted small' }, `kept until ${when(t.expires_at)}`),
      ),
      take,
    );
  }

  async function load() {
    try {
      const [{ tables }, { agents }] = await Promise.all([
        call<{ tables: RelayTable[] }>('GET', '/tables'),
        call<{ agents: Agent[] }>('GET', '/agents'),
      ]);
      const mine = tables.filter((t) => t.agent?.id === agentId);
      const unheld = tables.filter((t) => t.agent === null);
      const others = agents.filter((a) => a.id !== agentId);
      section.replaceChildren(
        el('h2', {}, 'Tables'),
        el(
          'p',
          { class: 'svc-muted small' },
          'The service keeps them for you; each of your devices shows the same rows.',
        ),
        el(
          'ul',
          { class: 'conn-list', 'aria-label': 'Tables this agent holds' },
          ...(mine.length === 0
            ? [el('li', { class: 'empty' }, 'This agent has no tables yet.')]
            : mine.map((t) => row(t, others))),
        ),
        ...(unheld.length > 0
          ? [
              el('h3', {}, 'Kept tables (from removed agents)'),
              el('ul', { class: 'conn-list', 'aria-label': 'Kept tables' }, ...unheld.map(kept)),
            ]
          : []),
        status,
      );
    } catch (error) {
      section.replaceChildren(problem(error));
    }
  }
  void load();
  return { el: section, reload: () => void load() };
}
