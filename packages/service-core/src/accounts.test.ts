import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, openHarness } from '../test/harness.js';
import { type Accounts, createAccounts } from './accounts.js';
import { ServiceError } from './errors.js';
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
