import { describe, expect, it } from 'vitest';
import { PushConfigError } from './errors.js';
import { checkVapidKeys, generateVapidKeys } from './vapid.js';

describe('VAPID keys', () => {
  it('generates a P-256 pair that passes the check', () => {
    const keys = generateVapidKeys();
    expect(Buffer.from(keys.publicKey, 'base64url')).toHaveLength(65);
    expect(checkVapidKeys({ ...keys, subject: ' https://svc.example ' }).subject).toBe('https://svc.example');
  });

  it('names the setting that is wrong', () => {
    const keys = generateVapidKeys();
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(PushConfigError);
        return (e as PushConfigError).code;
      }
      return 'none';
    };
    expect(code(() => checkVapidKeys({ ...keys, publicKey: 'abc', subject: 'mailto:a@b.c' }))).toBe(
      'INVALID_VAPID_PUBLIC_KEY',
    );
    expect(code(() => checkVapidKeys({ ...keys, privateKey: keys.publicKey, subject: 'mailto:a@b.c' }))).toBe(
      'INVALID_VAPID_PRIVATE_KEY',
    );
    expect(code(() => checkVapidKeys({ ...keys, subject: 'ops@example.com' }))).toBe('INVALID_VAPID_SUBJECT');
  });
});
