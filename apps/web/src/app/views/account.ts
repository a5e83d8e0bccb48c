// Settings › Account: who is signed in, this device's appearance (light, dark or the device's), sign out
// here or everywhere, and deleting the account (confirmed with the password).
import { el } from '../../shared/dom.js';
import { applyScheme, type Scheme, savedScheme } from '../../shared/look.js';
import { call } from '../api.js';
import { go, problem, type View } from '../shell.js';
import { signOutHere } from '../sign-out.js';
import { type AccountZone, chooseZone, deviceZone, keepZone } from '../time-zone.js';

const SCHEMES: readonly { value: Scheme; label: string }[] = [
  { value: 'auto', label: 'Device' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/** Light, dark or the device's own setting; kept on this device only (each phone may differ). */
function appearanceSection(): HTMLElement {
  const current = savedScheme();
  const group = el(
    'fieldset',
    { class: 'scheme-pick' },
    el('legend', {}, 'Appearance'),
    ...SCHEMES.map(({ value, label }) => {
      const input = el('input', { type: 'radio', name: 'scheme', value, checked: current === value });
      input.addEventListener('change', () => input.checked && applyScheme(value));
      return el('label', { class: 'scheme-option' }, input, el('span', {}, label));
    }),
  );
  return el(
    'section',
    { class: 'stack', 'aria-labelledby': 'appearance-h' },
    el('h2', { id: 'appearance-h' }, 'Appearance'),
    group,
    el(
      'p',
      { class: 'svc-muted small' },
      'Kept on this device. Device follows the phone’s own light or dark setting.',
    ),
  );
}

const FOLLOW = '';

/** The zones this browser knows (Intl), the account's own first when the list lacks it. */
function zoneNames(current: string | null): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  const all = intl.supportedValuesOf?.('timeZone') ?? [];
  const names = all.includes('UTC') ? all : [...all, 'UTC'];
  return current && !names.includes(current) ? [current, ...names] : names;
}

/** Where the person's dates are: `today` and `now` in every table, here and on the service (ADR 0253). */
function timeZoneSection(zone: AccountZone, status: HTMLElement): HTMLElement {
  const pick = el(
    'select',
    { id: 'time-zone', class: 'svc-input' },
    el(
      'option',
      { value: FOLLOW, selected: !zone.time_zone_pinned },
      `Follow my devices (this one: ${deviceZone()})`,
    ),
    ...zoneNames(zone.time_zone).map((name) =>
      el('option', { value: name, selected: zone.time_zone_pinned && zone.time_zone === name }, name),
    ),
  );
  const now = el('p', { class: 'svc-muted small', id: 'time-zone-now' });
  const say = (z: AccountZone) =>
    now.replaceChildren(
      z.time_zone
        ? `Today and now in your tables are in ${z.time_zone}${z.time_zone_pinned ? ', wherever your devices are' : ', the zone your devices last reported'}.`
        : 'No device has reported a zone yet: your tables use UTC.',
    );
  say(zone);
  pick.addEventListener('change', async () => {
    try {
      say(await chooseZone(pick.value === FOLLOW ? null : pick.value));
    } catch (error) {
      status.replaceChildren(problem(error));
    }
  });
  return el(
    'section',
    { class: 'stack', 'aria-labelledby': 'time-zone-h' },
    el('h2', { id: 'time-zone-h' }, 'Time zone'),
    el('div', { class: 'svc-field' }, el('label', { for: 'time-zone' }, 'Dates in your tables'), pick),
    now,
  );
}

function signOutSection(status: HTMLElement): HTMLElement {
  const here = el('button', { type: 'button', class: 'svc-btn' }, 'Sign out');
  here.addEventListener('click', async () => {
    await signOutHere();
    go('#/signin');
  });
  const everywhere = el('button', { type: 'button', class: 'svc-btn' }, 'Sign out everywhere');
  everywhere.addEventListener('click', async () => {
    if (!confirm('Sign out on every phone and computer, this one too? Your agents stay connected.')) return;
    try {
      await call('POST', '/auth/signout-everywhere');
      await signOutHere('everywhere');
      go('#/signin');
    } catch (error) {
      status.replaceChildren(problem(error));
    }
  });
  return el(
    'section',
    { class: 'stack', 'aria-labelledby': 'signout-h' },
    el('h2', { id: 'signout-h' }, 'Your devices'),
    el('div', { class: 'row' }, here, everywhere),
    el(
      'p',
      { class: 'svc-muted small' },
      'Sign out everywhere ends every sign-in of this account and stops notifications on all its devices.',
    ),
  );
}

function deleteSection(status: HTMLElement): HTMLElement {
  const password = el('input', {
    id: 'delete-password',
    type: 'password',
    class: 'svc-input',
    autocomplete: 'current-password',
    required: true,
  });
  const form = el(
    'form',
    { class: 'stack' },
    el(
      'div',
      { class: 'svc-field' },
      el('label', { for: 'delete-password' }, 'Your password, to confirm'),
      password,
    ),
    el('button', { type: 'submit', class: 'svc-btn danger' }, 'Delete account'),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (!confirm('Delete this account, every agent, thread, photo and table in it? This cannot be undone.'))
      return;
    try {
      await call('DELETE', '/me', { password: password.value });
      await signOutHere('gone');
      go('#/signin');
    } catch (error) {
      status.replaceChildren(problem(error));
    }
  });
  return el(
    'section',
    { class: 'stack danger-zone', 'aria-labelledby': 'delete-h' },
    el('h2', { id: 'delete-h' }, 'Delete account'),
    el(
      'p',
      { class: 'small' },
      'Removes the account and everything in it: agents, their threads, photos and tables. Connected apps stop at once.',
    ),
    form,
  );
}

export function accountView(): View {
  const status = el('div', { 'aria-live': 'polite' });
  const who = el(
    'dl',
    { class: 'account-who' },
    el('dt', {}, 'Email'),
    el('dd', { id: 'account-email' }, '…'),
  );
  const zone = el('div');
  void (async () => {
    try {
      const me = await call<{ email: string; created_at: string } & AccountZone>('GET', '/me');
      zone.replaceChildren(timeZoneSection(keepZone(me), status));
      who.replaceChildren(
        el('dt', {}, 'Email'),
        el('dd', { id: 'account-email' }, me.email),
        el('dt', {}, 'Since'),
        el('dd', {}, new Date(me.created_at).toLocaleDateString([], { dateStyle: 'medium' })),
      );
    } catch (error) {
      status.replaceChildren(problem(error));
    }
  })();
  return {
    title: 'Account',
    back: '#/',
    body: el(
      'div',
      { class: 'stack narrow settings' },
      who,
      status,
      zone,
      appearanceSection(),
      signOutSection(status),
      deleteSection(status),
    ),
  };
}
