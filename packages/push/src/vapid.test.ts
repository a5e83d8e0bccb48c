import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PushConfigError } from './errors.js';
import { checkVapidKeys, generateVapidKeys, loadVapidKeys, VAPID_FILE } from './vapid.js';

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

describe('loadVapidKeys', () => {
  it('keeps one generated pair in an owner-only file, prefers given keys, and is off without a contact', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-vapid-'));
    try {
      expect(loadVapidKeys({ dataDir, subject: undefined })).toBeNull();
      expect(fs.existsSync(path.join(dataDir, VAPID_FILE))).toBe(false);
      const first = loadVapidKeys({ dataDir, subject: 'mailto:ops@example.com' })!;
      expect(fs.statSync(path.join(dataDir, VAPID_FILE)).mode & 0o777).toBe(0o600);
      expect(loadVapidKeys({ dataDir, subject: 'mailto:ops@example.com' })).toEqual(first);
      const given = generateVapidKeys();
      expect(loadVapidKeys({ dataDir, subject: 'mailto:ops@example.com', ...given })!.publicKey).toBe(
        given.publicKey,
      );
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('takes an https base URL as the contact when no subject is given, never a plain-http one', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-vapid-'));
    try {
      expect(loadVapidKeys({ dataDir, baseUrl: 'http://localhost:8787' })).toBeNull();
      expect(loadVapidKeys({ dataDir, baseUrl: 'https://svc.example' })!.subject).toBe('https://svc.example');
      expect(
        loadVapidKeys({ dataDir, subject: 'mailto:a@b.c', baseUrl: 'https://svc.example' })!.subject,
      ).toBe('mailto:a@b.c');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
