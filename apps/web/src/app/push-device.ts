// This device's side of Web Push: its id, the Notifications switch (permission asked only on the person's
// tap), the browser subscription registered on the person's API, and presence while a thread is on screen.
import { ApiError, call } from './api.js';

const DEVICE_KEY = 'svc-device-id';
/** The server lets a presence lapse after 2 minutes; the app renews it well before. */
export const PRESENCE_RENEW_MS = 60_000;

/** A stable id for this browser (presence and the settings list name the device by it). */
export function deviceId(): string {
  let id = localStorage.getItem(DEVICE_KEY);
  if (!id) {
    const bytes = crypto.getRandomValues(new Uint8Array(12));
    id = `d-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
    localStorage.setItem(DEVICE_KEY, id);
  }
  return id;
}

/** The server's answer to GET /push. */
export interface PushStatus {
  configured: boolean;
  public_key: string | null;
  subscriptions: { id: string; device: string | null; service: string; created_at: string }[];
  settings: AttentionSettings;
}

/** Quiet hours, urgent asks and the per-agent budget (issue 39), as `GET /push` gives them. */
export interface AttentionSettings {
  quiet_hours: { start: string; end: string } | null;
  allow_urgent: boolean;
  plain_per_hour: number;
}

/** Where this device stands, for the settings page. */
export type NotificationState = 'not-configured' | 'unsupported' | 'install-first' | 'denied' | 'on' | 'off';

function pushSupported(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/** iOS and iPadOS deliver Web Push only to a web app added to the Home Screen. */
function needsInstall(): boolean {
  const ios = /iPad|iPhone|iPod/.test(navigator.userAgent);
  const standalone =
    window.matchMedia?.('(display-mode: standalone)').matches ||
    (navigator as Navigator & { standalone?: boolean }).standalone === true;
  return ios && !standalone;
}

async function currentSubscription(): Promise<PushSubscription | null> {
  const reg = await navigator.serviceWorker.ready;
  return reg.pushManager.getSubscription();
}

/** Reads the state without asking the person anything. */
export async function notificationState(status: PushStatus): Promise<NotificationState> {
  if (!status.configured) return 'not-configured';
  if (needsInstall()) return 'install-first';
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  if (Notification.permission !== 'granted') return 'off';
  const sub = await currentSubscription();
  return sub && status.subscriptions.some((s) => s.device === deviceId()) ? 'on' : 'off';
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

async function register(sub: PushSubscription): Promise<void> {
  const json = sub.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } };
  await call('PUT', '/push/subscriptions', { endpoint: json.endpoint, keys: json.keys, device: deviceId() });
}

/**
 * Turns notifications on: asks permission (this must run in the person's tap), subscribes the browser with
 * the service's VAPID key and registers the subscription. Returns the resulting state.
 */
export async function enableNotifications(status: PushStatus): Promise<NotificationState> {
  if (!status.configured || !status.public_key) return 'not-configured';
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return permission === 'denied' ? 'denied' : 'off';
  const reg = await navigator.serviceWorker.ready;
  const options = { userVisibleOnly: true, applicationServerKey: keyBytes(status.public_key) };
  let sub = await reg.pushManager.getSubscription();
  if (!sub) sub = await reg.pushManager.subscribe(options);
  try {
    await register(sub);
  } catch (error) {
    // 409: the endpoint is another account's (a shared browser): take a fresh one.
    if (!(error instanceof ApiError) || error.status !== 409) throw error;
    await sub.unsubscribe();
    await register(await reg.pushManager.subscribe(options));
  }
  return 'on';
}

/** Turns notifications off on this device: the server forgets it and the browser drops the subscription. */
export async function disableNotifications(): Promise<NotificationState> {
  const sub = await currentSubscription();
  if (sub) {
    await call('DELETE', '/push/subscriptions', { endpoint: sub.endpoint });
    await sub.unsubscribe();
  }
  return 'off';
}

/**
 * Holds a thread open on this device while it is on screen and visible (no buzz for it meanwhile):
 * renewed every minute, closed when hidden or left. Returns the stop function.
 */
export function holdPresence(agentId: string): () => void {
  const put = (open: boolean) =>
    call('PUT', `/agents/${agentId}/presence`, { open, device: deviceId() }).catch(() => {});
  const visible = () => document.visibilityState === 'visible';
  void put(visible());
  const timer = setInterval(() => visible() && void put(true), PRESENCE_RENEW_MS);
  const onVisibility = () => void put(visible());
  document.addEventListener('visibilitychange', onVisibility);
  return () => {
    clearInterval(timer);
    document.removeEventListener('visibilitychange', onVisibility);
    void put(false);
  };
}

/**
 * Marks the person as in front of the app on this device while it is visible (issue 39): renewed every
 * minute, ended when hidden. No device buzzes meanwhile. Returns the stop function.
 */
export function holdActive(): () => void {
  const put = (active: boolean) => call('PUT', '/presence', { active, device: deviceId() }).catch(() => {});
  const visible = () => document.visibilityState === 'visible';
  void put(visible());
  const timer = setInterval(() => visible() && void put(true), PRESENCE_RENEW_MS);
  const onVisibility = () => void put(visible());
  document.addEventListener('visibilitychange', onVisibility);
  return () => {
    clearInterval(timer);
    document.removeEventListener('visibilitychange', onVisibility);
    void put(false);
  };
}
