// VAPID (RFC 8292) keys: made once per service, checked before the first push so a typo fails at start.
import fs from 'node:fs';
import path from 'node:path';
import webPush from 'web-push';
import { PushConfigError } from './errors.js';

/** The service's VAPID identity: the P-256 key pair and the contact the push services may write to. */
export interface VapidKeys {
  /** Uncompressed P-256 public key, base64url (65 bytes): the app's `applicationServerKey`. */
  publicKey: string;
  /** The P-256 private scalar, base64url (32 bytes). Secret. */
  privateKey: string;
  /** `mailto:` address or `https:` URL of the operator (RFC 8292 `sub`). */
  subject: string;
}

/**
 * Makes a fresh VAPID key pair (the server does this once and keeps it with its other secrets).
 *
 * @example
 * ```ts
 * const { publicKey, privateKey } = generateVapidKeys();
 * ```
 */
export function generateVapidKeys(): { publicKey: string; privateKey: string } {
  return webPush.generateVAPIDKeys();
}

const B64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Checks VAPID settings and returns them trimmed.
 *
 * @throws {PushConfigError} `INVALID_VAPID_PUBLIC_KEY`, `INVALID_VAPID_PRIVATE_KEY` or `INVALID_VAPID_SUBJECT`
 * naming the setting and the expected form.
 * @example
 * ```ts
 * const vapid = checkVapidKeys({ publicKey, privateKey, subject: 'mailto:ops@example.com' });
 * ```
 */
export function checkVapidKeys(keys: VapidKeys): VapidKeys {
  const publicKey = keys.publicKey.trim().replace(/=+$/, '');
  const privateKey = keys.privateKey.trim().replace(/=+$/, '');
  const subject = keys.subject.trim();
  const pub = B64URL.test(publicKey) ? Buffer.from(publicKey, 'base64url') : Buffer.alloc(0);
  if (pub.length !== 65 || pub[0] !== 4) {
    throw new PushConfigError(
      'INVALID_VAPID_PUBLIC_KEY',
      'The VAPID public key must be an uncompressed P-256 point in base64url (87 characters starting with "B"); generate a pair with `npx web-push generate-vapid-keys` or leave both keys unset to have the server make them.',
    );
  }
  const priv = B64URL.test(privateKey) ? Buffer.from(privateKey, 'base64url') : Buffer.alloc(0);
  if (priv.length !== 32) {
    throw new PushConfigError(
      'INVALID_VAPID_PRIVATE_KEY',
      'The VAPID private key must be 32 bytes in base64url (43 characters) and belong to the public key.',
    );
  }
  if (!/^mailto:[^@\s]+@[^@\s]+$/.test(subject) && !/^https:\/\/[^\s]+$/.test(subject)) {
    throw new PushConfigError(
      'INVALID_VAPID_SUBJECT',
      `The VAPID contact ${JSON.stringify(subject)} must be a mailto: address or an https: URL (RFC 8292), e.g. mailto:ops@example.com.`,
    );
  }
  return { publicKey, privateKey, subject };
}

/** Where {@link loadVapidKeys} keeps generated keys, inside the service's data folder. */
export const VAPID_FILE = 'vapid.json';

/**
 * The service's VAPID identity: the given key pair when both keys are set, else a pair generated once and
 * kept in `<dataDir>/vapid.json` (owner-only, 0600, like the service's other secrets). The contact is
 * `subject`, else `baseUrl` when it is an https URL (a push service may write to the operator there);
 * null without either (push is then off and nothing fails).
 *
 * @throws {PushConfigError} when given or kept keys are malformed.
 * @example
 * ```ts
 * const vapid = loadVapidKeys({ dataDir: './data', subject: 'mailto:ops@example.com' });
 * ```
 */
export function loadVapidKeys(o: {
  dataDir: string;
  subject?: string | undefined;
  /** The service's public base URL; its https form is the contact when no subject is given. */
  baseUrl?: string | undefined;
  publicKey?: string | undefined;
  privateKey?: string | undefined;
}): VapidKeys | null {
  const subject = o.subject || (o.baseUrl?.startsWith('https://') ? o.baseUrl : undefined);
  if (!subject) return null;
  if (o.publicKey && o.privateKey) {
    return checkVapidKeys({ publicKey: o.publicKey, privateKey: o.privateKey, subject });
  }
  const file = path.join(o.dataDir, VAPID_FILE);
  try {
    fs.writeFileSync(file, `${JSON.stringify(generateVapidKeys())}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    fs.chmodSync(file, 0o600);
  }
  const kept = JSON.parse(fs.readFileSync(file, 'utf8')) as { publicKey: string; privateKey: string };
  return checkVapidKeys({ ...kept, subject });
}
