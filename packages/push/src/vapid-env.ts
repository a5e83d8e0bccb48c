// The Web Push settings an operator gives (SVC_VAPID_*), as zod rules a service's environment schema spreads
// in, and what they mean once parsed: the contact, and both keys or neither.
import { z } from 'zod';

const KEYS_HINT =
  'SVC_VAPID_PUBLIC_KEY and SVC_VAPID_PRIVATE_KEY must be a base64url P-256 pair, for example from `npx web-push generate-vapid-keys`; leave both unset to have the server make them';

/** The variables' rules; every one optional (nothing set = keys made once, contact from an https base URL). */
export const VAPID_ENV = {
  SVC_VAPID_SUBJECT: z
    .string()
    .regex(
      /^(mailto:[^@\s]+@[^@\s]+|https:\/\/\S+)$/,
      'SVC_VAPID_SUBJECT must be a mailto: address or an https: URL, for example mailto:ops@example.com',
    )
    .optional(),
  SVC_VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^B[A-Za-z0-9_-]{86}$/, KEYS_HINT)
    .optional(),
  SVC_VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, KEYS_HINT)
    .optional(),
};

/** What the variables give {@link loadVapidKeys}. */
export interface VapidSettings {
  subject?: string;
  publicKey?: string;
  privateKey?: string;
}

/**
 * The parsed variables as settings, or undefined when none is set.
 *
 * @throws {Error} naming SVC_VAPID_PUBLIC_KEY when only one of the two keys is given.
 */
export function vapidSettings(env: {
  SVC_VAPID_SUBJECT?: string | undefined;
  SVC_VAPID_PUBLIC_KEY?: string | undefined;
  SVC_VAPID_PRIVATE_KEY?: string | undefined;
}): VapidSettings | undefined {
  const {
    SVC_VAPID_SUBJECT: subject,
    SVC_VAPID_PUBLIC_KEY: publicKey,
    SVC_VAPID_PRIVATE_KEY: privateKey,
  } = env;
  if (Boolean(publicKey) !== Boolean(privateKey)) throw new Error(`SVC_VAPID_PUBLIC_KEY: ${KEYS_HINT}`);
  const settings = {
    ...(subject ? { subject } : {}),
    ...(publicKey && privateKey ? { publicKey, privateKey } : {}),
  };
  return Object.keys(settings).length > 0 ? settings : undefined;
}
