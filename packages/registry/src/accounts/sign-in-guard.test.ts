// Issue 46 item 8: a stranger cannot lock the owner out (a device that signed in before is never held back
// by the account's limit), one address guessing one account stops soonest, and new passwords are checked
// against the 100,000 most common leaked ones with a length rule.
import { type TestStore as Harness, createTestStore as openHarness } from '@screen-service/test-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServiceError } from '../kernel/errors.js';
import { type Accounts, createAccounts } from './accounts.js';
import { isCommonPassword, MIN_NEW_PASSWORD_LENGTH } from './common-passwords.js';
import { createArgon2idHasher } from './password-hasher.js';

let h: Harness;
let clock: number;
let accounts: Accounts;
beforeEach(() => {
  h = openHarness();
  clock = Date.UTC(2026, 10, 28, 12);
  accounts = createAccounts({
    store: h.store,
    hasher: createArgon2idHasher({ memoryCost: 1024, timeCost: 1 }),
    jwtSecret: new TextEncoder().encode('y'.repeat(32)),
    issuer: 'http://test',
    now: () => clock,
  });
});
afterEach(() => h.close());

const outcome = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => (e instanceof ServiceError ? e.code : String(e)),
  );
const owner = { email: 'owner@example.com', password: 'correct horse battery' };

describe('a stranger cannot lock the owner out', () => {
  it('wrong passwords from anywhere hold new devices back, never the owner’s known device', async () => {
    await accounts.signUp(owner);
    const phone = await accounts.signIn({ ...owner, clientAddr: '198.51.100.1' });
    expect(phone.device_token).toMatch(/^svc_dv_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    // A stranger keeps the account backing off from many addresses (one try per address per window).
    for (let i = 0; i < 40; i++) {
      await outcome(
        accounts.signIn({ email: owner.email, password: `guess no ${i}`, clientAddr: `10.0.0.${i}` }),
      );
    }
    // The owner's phone, with its device token, signs in at once with the right password.
    const again = await accounts.signIn({
      ...owner,
      clientAddr: '198.51.100.1',
      device_token: phone.device_token,
    });
    expect(again.device_token).toBe(phone.device_token);
    // A device that never signed in waits (slowed, told when to come back), whatever its address.
    const fresh = await accounts.signIn({ ...owner, clientAddr: '192.0.2.50' }).catch((e: ServiceError) => e);
    expect(fresh).toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
    expect((fresh as ServiceError).details).toMatchObject({ retryAfterS: expect.any(Number) });
  });

  it('a known device is throttled by its own wrong passwords; its token is worth nothing for another account', async () => {
    await accounts.signUp(owner);
    await accounts.signUp({ email: 'other@example.com', password: 'another long phrase' });
    const { device_token } = await accounts.signIn({ ...owner, clientAddr: 'a' });
    for (let i = 0; i < 5; i++) {
      expect(await outcome(accounts.signIn({ ...owner, password: 'nope nope', device_token }))).toBe(
        'INVALID_CREDENTIALS',
      );
    }
    expect(await outcome(accounts.signIn({ ...owner, device_token }))).toBe('TOO_MANY_ATTEMPTS');
    // The same token for another account is no token: that account's own limits apply.
    for (let i = 0; i < 5; i++) {
      await outcome(accounts.signIn({ email: 'other@example.com', password: 'nope nope', clientAddr: 'b' }));
    }
    expect(
      await outcome(
        accounts.signIn({
          email: 'other@example.com',
          password: 'another long phrase',
          device_token,
          clientAddr: 'c',
        }),
      ),
    ).toBe('TOO_MANY_ATTEMPTS');
    // A forged token (right shape, wrong MAC) is no token either: with the account backing off, it waits.
    for (let i = 0; i < 5; i++) {
      await outcome(accounts.signIn({ ...owner, password: 'nope nope', clientAddr: `e${i}` }));
    }
    const forged = `${device_token!.slice(0, -3)}AAA`;
    expect(await outcome(accounts.signIn({ ...owner, device_token: forged, clientAddr: 'd' }))).toBe(
      'TOO_MANY_ATTEMPTS',
    );
    clock += 2_000; // the device's own wait is over; the account's limit does not hold it
    expect(await outcome(accounts.signIn({ ...owner, device_token, clientAddr: 'd' }))).toBe('ok');
  });

  it('stops one address guessing one account after 5 tries, before the account-wide limit matters', async () => {
    await accounts.signUp(owner);
    for (let i = 0; i < 5; i++) {
      await outcome(accounts.signIn({ ...owner, password: `guess no ${i}`, clientAddr: 'guesser' }));
    }
    const refused = await accounts
      .signIn({ ...owner, password: 'guess no 6', clientAddr: 'guesser' })
      .catch((e) => e);
    expect(refused).toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
  });
});

describe('new passwords (breached list kept offline, length rule)', () => {
  it.each([
    'Password123!',
    'password123',
    'iloveyou12',
    'qwertyuiop',
    'Dragon2024!!',
    'sunshine!!',
    '1234567890',
    'trustno1!!',
  ])('refuses %s', async (password) => {
    await expect(accounts.signUp({ email: 'new@example.com', password })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      field: 'password',
    });
  });

  it(`asks for ${MIN_NEW_PASSWORD_LENGTH} characters, and accepts an uncommon phrase`, async () => {
    await expect(accounts.signUp({ email: 'new@example.com', password: 'Zq7#kLp2' })).rejects.toThrow(
      /at least 10 characters/,
    );
    await expect(
      accounts.signUp({ email: 'new@example.com', password: 'violet tuba harbor' }),
    ).resolves.toMatchObject({
      device_token: expect.stringMatching(/^svc_dv_/),
    });
  });

  it('reads the 100,000-entry list shipped in the package', () => {
    expect(isCommonPassword('123456')).toBe(true);
    expect(isCommonPassword('fyfcnfcbz')).toBe(true); // far down the ranked list
    expect(isCommonPassword('violet tuba harbor')).toBe(false);
  });
});
