// Connections: paired computers and tool connections, each with Remove (the kill switch: tokens stop at once).
import { el } from '../../shared/dom.js';
import { type Connection, call } from '../api.js';
import { ago, focusOn, problem, type View } from '../shell.js';

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
                  // The row (and its button) is gone: the focus goes to the list it was in.
                  focusOn(list);
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
                    { class: 'svc-muted small conn-profiles' },
                    // A host's profiles by their remote_ref (doc2), with the agent each one is.
                    `${c.kind === 'mcp' ? 'Talks as' : 'Profiles:'} ${c.agents.map((a) => (a.remote_ref && a.remote_ref !== a.name ? `${a.remote_ref} (${a.name})` : a.name)).join(', ') || 'no agent'}`,
                  ),
                  el(
                    'p',
                    { class: 'svc-muted small conn-seen' },
                    c.last_seen_at ? `Last seen ${ago(c.last_seen_at)}` : 'Not seen yet',
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
