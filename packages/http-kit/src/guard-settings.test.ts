import { describe, expect, it } from 'vitest';
import { readGuardSettings } from './guard-settings.js';

describe('readGuardSettings', () => {
  it('reads the four settings, leaves unset ones out, and names a bad one with an example', () => {
    expect(readGuardSettings({})).toEqual({});
    expect(
      readGuardSettings({
        SVC_TRUST_PROXY: 'loopback, 10.0.0.0/8',
        SVC_PHOTO_MAX_BYTES: '5000000',
        SVC_PHOTO_QUOTA_BYTES: '',
        SVC_STREAMS_PER_ACCOUNT: '3',
      }),
    ).toEqual({ trustProxy: 'loopback, 10.0.0.0/8', photoMaxBytes: 5_000_000, streamsPerAccount: 3 });
    expect(() => readGuardSettings({ SVC_PHOTO_MAX_BYTES: '10MB' })).toThrow(
      /^SVC_PHOTO_MAX_BYTES: must be a whole number above 0, for example SVC_PHOTO_MAX_BYTES=10485760$/,
    );
    expect(() => readGuardSettings({ SVC_TRUST_PROXY: 'any;thing' })).toThrow(/^SVC_TRUST_PROXY: /);
  });
});
