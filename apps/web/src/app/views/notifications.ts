// Settings › Notifications: this device's switch (permission asked only on tap, a pending state while the
// browser subscribes, a time limit with a message), what a buzz contains, and the per-agent mute switches.
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
import { attentionSection } from './attention-settings.js';

/** How long turning notifications on may take before the page says so (the browser's push service can hang). */
export const SUBSCRIBE_TIMEOUT_MS = 10_000;

const STATE_TEXT: Record<NotificationState | 'pending', string> = {
  'not-configured': 'Notifications are not configured on this service. Ask its operator to set them up.',
  unsupported: 'This browser cannot receive notifications.',
  'install-first':
    'On iPhone and iPad, add this app to the Home Screen first (Share › Add to Home Screen), then open it from there.',
  denied: 'Notifications are blocked for this app in the browser settings. Allow them there, then come back.',
  on: 'On: this device buzzes for new screens and messages.',
  off: 'Off: this device stays quiet.',
  pending: 'Turning on… waiting for the browser.',
};

/** A switch (a checkbox the platform announces as a switch), drawn as a toggle by app.css. */
function switchInput(attrs: Record<string, string | boolean>): HTMLInputElement {
  return el('input', { type: 'checkbox', role: 'switch', class: 'switch', ...attrs });
}

/** One row of a settings list: what the switch does on the left, the switch on the right. */
function settingRow(input: HTMLInputElement, label: string, note?: HTMLElement): HTMLElement {
  return el(
    'li',
    { class: 'setting' },
    el('div', { class: 'setting-text' }, el('label', { for: input.id }, label), note ?? null),
    input,
  );
}

class TimedOut extends Error {}

/** Resolves as `work` does, or rejects with {@link TimedOut} after `ms` (work goes on; see its caller). */
function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOut()), ms);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

export function notificationsView(): View {
  const toggle = switchInput({ id: 'n-device', disabled: true });
  const stateLine = el('p', { class: 'svc-muted small', id: 'n-state', 'aria-live': 'polite' }, 'Checking…');
  const agents = el('ul', { class: 'settings-list', 'aria-label': 'Buzz for' });
  const when = el('div', { class: 'stack' });
  let status: PushStatus | null = null;
  let left = false;

  const show = (state: NotificationState | 'pending') => {
    stateLine.textContent = STATE_TEXT[state];
    stateLine.dataset.state = state;
    const pending = state === 'pending';
    // While the browser subscribes the switch shows neither on nor off: never "on" beside "Off".
    toggle.indeterminate = pending;
    toggle.checked = state === 'on';
    toggle.setAttribute('aria-busy', String(pending));
    toggle.disabled = pending || !['on', 'off'].includes(state);
  };

  toggle.addEventListener('change', async () => {
    if (!status) return;
    const turningOn = toggle.checked;
    if (turningOn) show('pending');
    else toggle.disabled = true;
    // The permission prompt runs here, inside the person's tap, never on page load.
    const work = turningOn ? enableNotifications(status) : disableNotifications();
    try {
      show(await within(work, SUBSCRIBE_TIMEOUT_MS));
      status = await call<PushStatus>('GET', '/push');
    } catch (error) {
      show(turningOn ? 'off' : 'on');
      if (error instanceof TimedOut) {
        stateLine.textContent = `Turning notifications on did not finish in ${SUBSCRIBE_TIMEOUT_MS / 1000} s: the browser's push service did not answer. Check the connection and try again.`;
        // Should the browser finish after all, the switch says what really happened.
        void work.then((state) => !left && show(state)).catch(() => {});
      } else {
        stateLine.replaceChildren(problem(error));
      }
    }
  });

  const load = async () => {
    try {
      status = await call<PushStatus>('GET', '/push');
      show(await notificationState(status));
      if (!when.firstChild) when.replaceChildren(attentionSection(status.settings));
      const { agents: list } = await call<{ agents: Agent[] }>('GET', '/agents');
      agents.replaceChildren(
        ...list.map((a) => {
          const mute = switchInput({ id: `n-agent-${a.id}`, checked: !a.push_muted });
          mute.setAttribute('aria-label', `Buzz for ${a.name}`);
          mute.addEventListener('change', async () => {
            mute.disabled = true;
            try {
              await call('PATCH', `/agents/${a.id}`, { push_muted: !mute.checked });
            } catch (error) {
              mute.checked = !mute.checked;
              agents.prepend(el('li', {}, problem(error)));
            } finally {
              mute.disabled = false;
            }
          });
          const row = settingRow(mute, a.name);
          row.dataset.agent = a.id;
          return row;
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
      { class: 'stack narrow settings' },
      el('h2', {}, 'This device'),
      el('ul', { class: 'settings-list' }, settingRow(toggle, 'Notifications on this device', stateLine)),
      el(
        'p',
        { class: 'svc-muted small' },
        "A notification names the agent and shows the first line of its message or the screen's title. Nothing else leaves the service, and it is encrypted for this device only. A thread that is open on one of your devices does not buzz; several screens in a row become one notification. A question you can answer with one tap shows its choices on the notification: tap one to answer without opening the app.",
      ),
      when,
      el('h2', {}, 'Buzz for'),
      agents,
    ),
    leave: () => {
      left = true;
    },
    onEvent: (t) => (t === 'agents' ? void load() : undefined),
  };
}
