// Web Push composition: the VAPID keys (from config, or made once and kept in <data>/vapid.json, 0600) and
// the sender over service-core's outbox. Without a contact address push is off and the app says so.
import fs from 'node:fs';
import path from 'node:path';
import {
  checkVapidKeys,
  createWebPushTransport,
  generateVapidKeys,
  type VapidKeys,
} from '@screen-service/push';
import type { Core, PushDispatcher, PushEvent } from '@screen-service/service-core';
import type { ServerConfig } from './config.js';

/** Where generated VAPID keys are kept, beside the database. */
export const VAPID_FILE = 'vapid.json';

/**
 * The service's VAPID identity, or null when push is not configured (no SVC_VAPID_SUBJECT and a base URL
 * that is not https). Keys come from SVC_VAPID_PUBLIC_KEY/SVC_VAPID_PRIVATE_KEY, else from the data folder,
 * made on first start (owner-only file, like the other secrets).
 */
export function loadVapid(config: ServerConfig): VapidKeys | null {
  const subject =
    config.vapid?.subject ?? (config.baseUrl.startsWith('https://') ? config.baseUrl : undefined);
  if (!subject) return null;
  if (config.vapid?.publicKey && config.vapid.privateKey) {
    return checkVapidKeys({
      publicKey: config.vapid.publicKey,
      privateKey: config.vapid.privateKey,
      subject,
    });
  }
  const file = path.join(config.dataDir, VAPID_FILE);
  try {
    fs.writeFileSync(file, `${JSON.stringify(generateVapidKeys())}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    fs.chmodSync(file, 0o600);
  }
  const kept = JSON.parse(fs.readFileSync(file, 'utf8')) as { publicKey: string; privateKey: string };
  return checkVapidKeys({ ...kept, subject });
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
