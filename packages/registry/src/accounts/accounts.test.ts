import { type TestStore as Harness, createTestStore as openHarness } from '@screen-service/test-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServiceError } from '../kernel/errors.js';
import { type Accounts, createAccounts } from './accounts.js';
import { createArgon2idHasher } from './password-hasher.js';

let h: Harness;
let clock: number;
let accounts: Accounts;
const secret = new TextEncoder().encode('x'.repeat(32));
beforeEach(() => {
  h = openHarness();
  clock = Date.UTC(2026, 10, 21, 12);
  accounts = createAccounts({
    store: h.store,
    hasher: createArgon2idHasher({ memoryCost: 1024, timeCost: 1 }),
    jwtSecret: secret,
    issuer: 'http://test',
    now: () => clock,
  });
});
afterEach(() => h.close());

const code = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => (e instanceof ServiceError ? e.code : String(e)),
  );
const creds = { email: 'Ada@Example.com', password: 'correct horse battery' };

describe('accounts', () => {
  it('SVC_SIGNUP=closed: signUp refuses with SIGNUP_CLOSED, createUser (svc user add) still works, sign-in too', async () => {
    const closed = createAccounts({
      store: h.store,
      hasher: createArgon2idHasher({ memoryCost: 1024, timeCost: 1 }),
      jwtSecret: secret,
      issuer: 'http://test',
      now: () => clock,
      signup: 'closed',
    });
    expect(await code(closed.signUp(creds))).toBe('SIGNUP_CLOSED');
    expect(await h.store.users.findByEmail('ada@example.com')).toBeNull();
    expect((await closed.createUser(creds)).email).toBe('ada@example.com');
    expect(await code(closed.signIn(creds))).toBe('ok');
  });

  it('stores argon2id hashes with the default parameters', async () => {
    const stored = await createArgon2idHasher().hash('correct horse battery');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await createArgon2idHasher().verify(stored, 'correct horse battery')).toBe(true);
    expect(await createArgon2idHasher().verify('garbage', 'x')).toBe(false);
  });

  it('signs up, signs in, and issues 15-minute svc_user access tokens', async () => {
    const s = await accounts.signUp(creds);
    expect(s).toMatchObject({ token_type: 'bearer', expires_in: 900, user: { email: 'ada@example.com' } });
    expect(s.refresh_token).toMatch(/^svc_ar_/);
    const payload = JSON.parse(Buffer.from(s.access_token.split('.')[1]!, 'base64url').toString());
    expect(payload).toMatchObject({ role: 'svc_user', sub: s.user.id });
    expect(payload.exp - payload.iat).toBe(900);
    expect(await accounts.verifyAccess(s.access_token)).toMatchObject({ userId: s.user.id });
    expect(await code(accounts.signUp(creds))).toBe('EMAIL_TAKEN');
    expect(await code(accounts.signIn({ ...creds, password: 'wrong password' }))).toBe('INVALID_CREDENTIALS');
    expect(await code(accounts.signIn({ email: 'nobody@example.com', password: 'whatever1' }))).toBe(
      'INVALID_CREDENTIALS',
    );
    expect((await accounts.signIn(creds)).user.id).toBe(s.user.id);
    clock += 15 * 60 * 1000 + 1000;
    expect(await code(accounts.verifyAccess(s.access_token))).toBe('UNAUTHORIZED');
  });

  it('a token checked before still expires on time, stops at sign-out, and a changed byte is refused', async () => {
    const s = await accounts.signUp(creds);
    const message = (p: Promise<unknown>) => p.then(String, (e: Error) => e.message);
    for (let i = 0; i < 3; i++) await accounts.verifyAccess(s.access_token);
    const [head, body, sig] = s.access_token.split('.');
    const flipped = `${head}.${body}.${sig!.slice(0, -2)}${sig!.endsWith('AA') ? 'AB' : 'AA'}`;
    expect(await message(accounts.verifyAccess(flipped))).toBe(
      'The access token is not valid: sign in again.',
    );
    clock += 15 * 60 * 1000;
    expect(await message(accounts.verifyAccess(s.access_token))).toBe(
      'The access token expired: refresh it.',
    );
    clock -= 60 * 1000;
    const p = await accounts.verifyAccess(s.access_token);
    await accounts.signOut(p);
    expect(await message(accounts.verifyAccess(s.access_token))).toBe(
      'This sign-in has ended: sign in again.',
    );
  });

  it('rotates refresh tokens; replaying a used one ends the whole sign-in', async () => {
    const s = await accounts.signUp(creds);
    const r1 = await accounts.refresh(s.refresh_token);
    expect(r1.refresh_token).not.toBe(s.refresh_token);
    const r2 = await accounts.refresh(r1.refresh_token);
    expect(await code(accounts.refresh(r1.refresh_token))).toBe('INVALID_REFRESH_TOKEN');
    // The replay revoked the family: the newest token and access tokens stop too.
    expect(await code(accounts.refresh(r2.refresh_token))).toBe('INVALID_REFRESH_TOKEN');
    expect(await code(accounts.verifyAccess(r2.access_token))).toBe('UNAUTHORIZED');
  });

  it('signs out at once and refuses bad input by field', async () => {
    const s = await accounts.signUp(creds);
    const p = await accounts.verifyAccess(s.access_token);
    await accounts.signOut(p);
    expect(await code(accounts.verifyAccess(s.access_token))).toBe('UNAUTHORIZED');
    expect(await code(accounts.refresh(s.refresh_token))).toBe('INVALID_REFRESH_TOKEN');
    expect(await code(accounts.signUp({ email: 'nope', password: 'long enough' }))).toBe('INVALID_INPUT');
    expect(await code(accounts.signUp({ email: 'b@example.com', password: 'short' }))).toBe('INVALID_INPUT');
    expect(await code(accounts.verifyAccess('not.a.jwt'))).toBe('UNAUTHORIZED');
  });

  it('deletes the account after the password is confirmed', async () => {
    const s = await accounts.signUp(creds);
    const p = await accounts.verifyAccess(s.access_token);
    expect(await code(accounts.deleteAccount(p, 'wrong password'))).toBe('INVALID_CREDENTIALS');
    await accounts.deleteAccount(p, creds.password);
    expect(await h.store.users.findById(p.userId)).toBeNull();
    expect(await code(accounts.verifyAccess(s.access_token))).toBe('UNAUTHORIZED');
  });
});

describe('password guessing and sign-up (issue 22 item 4)', () => {
  it('backs off after 5 wrong passwords: the right one then waits too, and the wait doubles', async () => {
    await accounts.signUp(creds);
    const attempt = (password: string, clientAddr = '203.0.113.7') =>
      code(accounts.signIn({ email: creds.email, password, clientAddr }));
    for (let i = 0; i < 5; i++) expect(await attempt('wrong password')).toBe('INVALID_CREDENTIALS');
    expect(await attempt(creds.password)).toBe('TOO_MANY_ATTEMPTS');
    clock += 1_000;
    // A success clears the account's count.
    expect(await attempt(creds.password)).toBe('ok');
    for (let i = 0; i < 5; i++) expect(await attempt('wrong password')).toBe('INVALID_CREDENTIALS');
    expect(await attempt('wrong password')).toBe('TOO_MANY_ATTEMPTS');
    // From another address too: the account itself is backing off (1 s after the 5 free failures).
    expect(await attempt(creds.password, '198.51.100.1')).toBe('TOO_MANY_ATTEMPTS');
    clock += 1_000;
    expect(await attempt('wrong password')).toBe('INVALID_CREDENTIALS');
    clock += 1_000;
    // The wait doubled to 2 s: the right password still waits.
    expect(await attempt(creds.password)).toBe('TOO_MANY_ATTEMPTS');
    clock += 1_000;
    expect(await attempt(creds.password)).toBe('ok');
  });

  it('backs off per address across accounts, and unknown accounts answer like known ones', async () => {
    await accounts.signUp(creds);
    const codes: string[] = [];
    for (let i = 0; i < 25; i++) {
      codes.push(
        await code(
          accounts.signIn({ email: `nobody${i}@example.com`, password: 'xxxxxxxx', clientAddr: 'a' }),
        ),
      );
    }
    expect(codes.slice(0, 20).every((c) => c === 'INVALID_CREDENTIALS')).toBe(true);
    expect(codes.at(-1)).toBe('TOO_MANY_ATTEMPTS');
    expect(await code(accounts.signIn({ ...creds, clientAddr: 'a' }))).toBe('TOO_MANY_ATTEMPTS');
    expect(await code(accounts.signIn({ ...creds, clientAddr: 'b' }))).toBe('ok');
  });

  it('refuses an email address carrying NUL or another control character', async () => {
    for (const email of ['ada\u0000@example.com', 'ada@example.com\u0000', 'a\u0007da@example.com']) {
      await expect(accounts.signUp({ email, password: 'a long passphrase' })).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        field: 'email',
      });
    }
  });

  it('refuses the most common passwords at sign-up and limits sign-ups per address', async () => {
    for (const password of ['12345678', 'Password1', 'qwertyuiop', 'aaaaaaaaaa', 'adalovelace']) {
      await expect(accounts.signUp({ email: 'adalovelace@example.com', password })).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        field: 'password',
      });
    }
    const codes: string[] = [];
    for (let i = 0; i < 21; i++) {
      codes.push(
        await code(
          accounts.signUp({ email: `u${i}@example.com`, password: 'a long passphrase', clientAddr: 'x' }),
        ),
      );
    }
    expect(codes.filter((c) => c === 'ok')).toHaveLength(20);
    expect(codes.at(-1)).toBe('TOO_MANY_ATTEMPTS');
    expect(
      await code(accounts.signUp({ email: 'v@example.com', password: 'a long passphrase', clientAddr: 'y' })),
    ).toBe('ok');
  });
});
