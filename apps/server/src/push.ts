// Web Push composition: the VAPID identity from config (or kept by @screen-service/push in the data folder)
// and the sender over service-core's outbox. Without a contact address push is off and the app says so.
import { createWebPushTransport, loadVapidKeys, type VapidKeys } from '@screen-service/push';
import type { Core, PushDispatcher, PushEvent } from '@screen-service/service-core';
import type { ServerConfig } from './config.js';

/** The contact is SVC_VAPID_SUBJECT, else an https base URL; none means push is not configured. */
export function loadVapid(config: ServerConfig): VapidKeys | null {
  return loadVapidKeys({
    dataDir: config.dataDir,
    subject: config.vapid?.subject ?? (config.baseUrl.startsWith('https://') ? config.baseUrl : undefined),
    publicKey: config.vapid?.publicKey,
    privateKey: config.vapid?.privateKey,
  });
}

/** The sender for this process, or null without VAPID keys (buzzes then stay queued until push is set up). */
export function createServerPushSender(
  core: Core,
  vapid: VapidKeys | null,
  onEvent?: (event: PushEvent) => void,
): PushDispatcher | null {
  if (!vapid) return null;
  return core.createPushSender(createWebPushTransport({ vapid }), onEvent ? { onEvent } : {});
}
