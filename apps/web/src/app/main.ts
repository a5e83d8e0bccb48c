// The person's app: hash routes over the person's API, one live stream, the service worker for offline start.

import { connectivity, noteNoNetwork, onConnectivity } from '@screen-service/phone-offline';
import { el } from '../shared/dom.js';
import { applyLook, applyScheme, savedScheme, useScreenCss } from '../shared/look.js';
import { openStream, session } from './api.js';
import { ownDevice, ownedFor } from './device-owner.js';
import { flushNow } from './outbox.js';
import { holdActive } from './push-device.js';
import { ago, focusOn, type View } from './shell.js';
import { reportZone } from './time-zone.js';
import { accessView } from './views/access.js';
import { accountView } from './views/account.js';
import { addAgentView } from './views/add-agent.js';
import { agentsView } from './views/agents.js';
import { approveView } from './views/approve.js';
import { connectionsView } from './views/connections.js';
import { inviteView } from './views/invite.js';
import { notificationsView } from './views/notifications.js';
import { settingsView } from './views/settings.js';
import { sharesView } from './views/shares.js';
import { signInView } from './views/signin.js';
import { threadView } from './views/thread.js';

useScreenCss();
applyLook({});
applyScheme(savedScheme());

const APP_NAME = 'Screen Service';
const root = document.getElementById('app')!;
let current: View | undefined;
let closeStream: (() => void) | undefined;
let releaseActive: (() => void) | undefined;
// Said on every view while the service does not answer: what is shown is what this phone kept (ADR 0277).
// In the page only while offline: a status that is there but hidden still counts for assistive technology.
const offline = el('p', { class: 'offline-note', role: 'status' });
onConnectivity(({ online, syncedAt }) => {
  const when = syncedAt === null ? '' : ` · last synced ${ago(new Date(syncedAt).toISOString())}`;
  offline.textContent = `Offline${when}`;
  if (online) offline.remove();
  else root.querySelector('header.bar')?.after(offline);
});

function route(): View {
  const hash = location.hash || '#/';
  // Signed out, the hash stays: sign-in returns to it (an app's approval link opened on a fresh phone).
  if (!session()) return signInView(hash);
  const approve = /^#\/approve\/([A-Za-z0-9_-]+)(\/here)?$/.exec(hash);
  if (approve) return approveView(decodeURIComponent(approve[1]!), approve[2] !== undefined);
  // `?screen=` from a notification's tap (issue 39): the thread opens with that screen in view.
  const thread = /^#\/a\/([A-Za-z0-9_-]+)(?:\?screen=([A-Za-z0-9_-]+))?$/.exec(hash);
  if (thread) return threadView(decodeURIComponent(thread[1]!), thread[2]);
  const settings = /^#\/a\/([A-Za-z0-9_-]+)\/settings$/.exec(hash);
  if (settings) return settingsView(decodeURIComponent(settings[1]!));
  if (hash === '#/add') return addAgentView();
  if (hash === '#/connections') return connectionsView();
  if (hash === '#/access') return accessView();
  if (hash === '#/account') return accountView();
  if (hash === '#/notifications') return notificationsView();
  if (hash === '#/shares') return sharesView();
  const invite = /^#\/invite\/([^/]+)$/.exec(hash);
  if (invite) return inviteView(decodeURIComponent(invite[1]!));
  if (hash === '#/signin') return agentsView();
  return agentsView();
}

/** The first Tab stop: skips the bar to the view's content (the thread: its newest screen). */
function skipLink(view: View, main: HTMLElement): HTMLElement {
  const link = el('a', { href: '#main', class: 'skip-link' }, view.skip?.label ?? 'Skip to content');
  link.addEventListener('click', (e) => {
    // The app routes on the hash: following #main would leave the view.
    e.preventDefault();
    focusOn(view.skip?.target() ?? main);
  });
  return link;
}

let claiming = false;

function show(): void {
  const s = session();
  // A new sign-in on this page, or its first start: the device becomes this person's before any view reads
  // or shows what it kept (another person's threads must not show, their answers must not go).
  if (s && !ownedFor(s)) {
    if (!claiming) {
      claiming = true;
      void ownDevice(s).finally(() => {
        claiming = false;
        show();
      });
    }
    return;
  }
  const navigated = current !== undefined;
  current?.leave?.();
  current = route();
  const heading = el('h1', { tabindex: -1 }, current.title);
  const bar = el(
    'header',
    { class: 'bar' },
    current.back
      ? el('a', { href: current.back, class: 'icon-link', 'aria-label': 'Back' }, '‹')
      : el('span', { class: 'bar-mark', 'aria-hidden': 'true' }),
    current.heading ?? heading,
    el('div', { class: 'bar-actions' }, ...(current.actions ?? [])),
  );
  const main = el('main', { class: 'page', id: 'main' }, current.body);
  root.replaceChildren(skipLink(current, main), bar, main);
  if (!connectivity().online) bar.after(offline);
  // A new view replaced the one the focus was in: start it at the view's heading, never on the page body.
  if (navigated) focusOn(current.heading?.querySelector<HTMLElement>('h1') ?? heading);
  // The home view is titled with the app's own name: say it once, not "Screen Service · Screen Service".
  document.title = current.title === APP_NAME ? APP_NAME : `${current.title} · ${APP_NAME}`;
  if (session() && !closeStream) {
    closeStream = openStream((type, data) => current?.onEvent?.(type, data));
    // Each start tells the account where this device is (the person's dates follow it unless pinned).
    void reportZone();
    // While the app is in front of the person here, no device buzzes (issue 39).
    releaseActive = holdActive();
    // Answers kept on this phone by an earlier start go now, in order.
    void flushNow();
  }
  if (!session() && closeStream) {
    closeStream();
    closeStream = undefined;
    releaseActive?.();
    releaseActive = undefined;
  }
}

window.addEventListener('hashchange', show);
window.addEventListener('online', () => session() && void flushNow());
window.addEventListener('offline', noteNoNetwork);
show();

if ('serviceWorker' in navigator && location.protocol !== 'file:') {
  // The silent `revoked` push: a shared agent was taken back; the list refreshes at once.
  navigator.serviceWorker.addEventListener('message', (e: MessageEvent<{ type?: string }>) => {
    if (e.data?.type === 'svc-revoked') current?.onEvent?.('agents', e.data);
    // The worker sent kept answers (Background Sync): the lists redraw from the device's database.
    if (e.data?.type === 'svc-outbox') void flushNow();
  });
  navigator.serviceWorker.register('sw.js').catch(() => {
    // The app works without it; only offline start is lost.
  });
}
