// The composer's `/` menu: the host's commands for this agent, filtered as typed; a tap fills the composer.
import { el } from '../../shared/dom.js';
import type { Agent } from '../api.js';

export function commandMenu(
  text: HTMLTextAreaElement,
  commands: () => Agent['commands'],
): { el: HTMLElement; open(): boolean; refresh(): void } {
  const list = el('ul', {
    class: 'commands',
    role: 'listbox',
    id: 'commands',
    'aria-label': 'Commands',
    hidden: true,
  });
  text.setAttribute('aria-controls', 'commands');
  const update = () => {
    const value = text.value;
    const all = commands() ?? [];
    const m = /^\/(\S*)$/.exec(value);
    if (!m || all.length === 0) {
      list.hidden = true;
      // Only while the menu is open: a plain message box takes no aria-expanded (axe: aria-allowed-attr).
      text.removeAttribute('aria-expanded');
      return;
    }
    const prefix = m[1]!.toLowerCase();
    const shown = all.filter((c) => c.name.startsWith(prefix)).slice(0, 20);
    list.replaceChildren(
      ...shown.map((c) => {
        const item = el(
          'li',
          { role: 'option', tabindex: -1, 'data-command': c.name },
          el('strong', {}, `/${c.name}`),
          // The host's texts each in a <bdi>: one cannot reorder the name, the dash or the other.
          c.args ? el('span', { class: 'svc-muted' }, ' ', el('bdi', {}, c.args)) : null,
          c.description ? el('span', { class: 'svc-muted' }, ' — ', el('bdi', {}, c.description)) : null,
        );
        item.addEventListener('click', () => {
          text.value = `/${c.name}${c.args ? ' ' : ''}`;
          list.hidden = true;
          text.removeAttribute('aria-expanded');
          text.focus();
        });
        return item;
      }),
    );
    list.hidden = shown.length === 0;
    if (list.hidden) text.removeAttribute('aria-expanded');
    else text.setAttribute('aria-expanded', 'true');
  };
  text.addEventListener('input', update);
  // refresh: the commands arrived (or changed) after the person typed `/`.
  return { el: list, open: () => !list.hidden, refresh: update };
}
