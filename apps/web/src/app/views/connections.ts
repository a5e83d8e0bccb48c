// Connections: paired computers and tool connections, each with Remove (the kill switch: tokens stop at once).
import { el } from '../../shared/dom.js';
import { type Connection, call } from '../api.js';
import { problem, type View } from '../shell.js';

export function connectionsView(): View {
  const list = el('ul', { class: 'conn-list', 'aria-label': 'Connections' });
  const load = async () => {
    try {
      const { connections } = await call<{ connections: Connection[] }>('GET', '/connections');
      const live = connections.filter((c) => !c.revoked_at);
      list.replaceChildren(
        ...(live.length === 0
          ? [
              el(
                'li',
                { class: 'empty' },
                'Nothing is connected. Pair an AI app from an agent to see it here.',
              ),
            ]
          : live.map((c) => {
              const remove = el('button', { type: 'button', class: 'svc-btn danger' }, 'Remove');
              remove.setAttribute('aria-label', `Remove ${c.name}`);
              remove.addEventListener('click', async () => {
                if (!confirm(`Remove ${c.name}? Its tokens stop working at once.`)) return;
                try {
                  await call('DELETE', `/connections/${c.id}`);
                  await load();
                } catch (error) {
                  list.prepend(el('li', {}, problem(error)));
                }
              });
              return el(
                'li',
                { class: 'conn', 'data-connection': c.id },
                el(
                  'div',
                  {},
                  el(
                    'p',
                    { class: 'agent-name' },
                    c.name,
                    el('span', { class: 'tag' }, c.via === 'oauth' ? 'signed in' : 'paired'),
                  ),
                  el(
                    'p',
                    { class: 'svc-muted small' },
                    `Talks as ${c.agents.map((a) => a.name).join(', ') || 'no agent'} · ${c.last_seen_at ? `seen ${new Date(c.last_seen_at).toLocaleString()}` : 'not seen yet'}`,
                  ),
                ),
                remove,
              );
            })),
      );
    } catch (error) {
      list.replaceChildren(el('li', {}, problem(error)));
    }
  };
  void load();
  return {
    title: 'Connections',
    back: '#/',
    body: el('div', { class: 'stack' }, list),
    onEvent: (t) => (t === 'agents' ? void load() : undefined),
  };
}
