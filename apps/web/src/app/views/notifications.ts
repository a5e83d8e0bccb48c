// Settings › Notifications: this device's switch (permission asked only on tap), what a buzz contains, and
// the per-agent mute switches (each agent's settings page has the same switch).
import { el } from '../../shared/dom.js';
import { type Agent, call } from '../api.js';
import {
  disableNotifications,
  enableNotifications,
  type NotificationState,
  notificationState,
  type PushStatus,
} from '../push-device.js';
import { problem, type View } from '../shell.js';

const STATE_TEXT: Record<NotificationState, string> = {
  'not-configured': 'Notifications are not configured on this service. Ask its operator to set them up.',
  unsupported: 'This browser cannot receive notifications.',
  'install-first':
    'On iPhone and iPad, add this app to the Home Screen first (Share › Add to Home Screen), then open it from there.',
  denied: 'Notifications are blocked for this app in the browser settings. Allow them there, then come back.',
  on: 'On: this device buzzes for new screens and messages.',
  off: 'Off: this device stays quiet.',
};

export function notificationsView(): View {
  const toggle = el('input', { id: 'n-device', type: 'checkbox', role: 'switch', disabled: true });
  const stateLine = el('p', { class: 'svc-muted small', id: 'n-state', 'aria-live': 'polite' }, 'Checking…');
  const agents = el('ul', { class: 'stack', 'aria-label': 'Agents' });
  let status: PushStatus | null = null;

  const show = (state: NotificationState) => {
    stateLine.textContent = STATE_TEXT[state];
    stateLine.dataset.state = state;
    toggle.checked = state === 'on';
    toggle.disabled = !['on', 'off'].includes(state);
  };

  toggle.addEventListener('change', async () => {
    if (!status) return;
    toggle.disabled = true;
    try {
      // The permission prompt runs here, inside the person's tap, never on page load.
      show(toggle.checked ? await enableNotifications(status) : await disableNotifications());
      status = await call<PushStatus>('GET', '/push');
    } catch (error) {
      stateLine.replaceChildren(problem(error));
      toggle.checked = !toggle.checked;
      toggle.disabled = false;
    }
  });

  const load = async () => {
    try {
      status = await call<PushStatus>('GET', '/push');
      show(await notificationState(status));
      const { agents: list } = await call<{ agents: Agent[] }>('GET', '/agents');
      agents.replaceChildren(
        ...list.map((a) => {
          const mute = el('input', { type: 'checkbox', role: 'switch', checked: !a.push_muted });
          mute.setAttribute('aria-label', `Buzz for ${a.name}`);
          mute.addEventListener('change', async () => {
            try {
              await call('PATCH', `/agents/${a.id}`, { push_muted: !mute.checked });
            } catch (error) {
              mute.checked = !mute.checked;
              agents.prepend(el('li', {}, problem(error)));
            }
          });
          return el('li', { 'data-agent': a.id }, el('label', { class: 'switch-row' }, mute, ` ${a.name}`));
        }),
      );
    } catch (error) {
      stateLine.replaceChildren(problem(error));
    }
  };
  void load();

  return {
    title: 'Notifications',
    back: '#/',
    body: el(
      'div',
      { class: 'stack' },
      el('label', { class: 'switch-row', for: 'n-device' }, toggle, ' Notifications on this device'),
      stateLine,
      el(
        'p',
        { class: 'svc-muted small' },
        "A notification names the agent and shows the first line of its message or the screen's title. Nothing else leaves the service, and it is encrypted for this device only. A thread that is open on one of your devices does not buzz; several screens in a row become one notification.",
      ),
      el('h2', {}, 'Buzz for'),
      agents,
    ),
    onEvent: (t) => (t === 'agents' ? void load() : undefined),
  };
}
