// The person's accounts: sign up, sign in, 15-minute access JWTs (role svc_user), rotating refresh
// tokens, sign out, and account deletion (every row cascades from the user).

import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { newId as defaultNewId, hashSecret, mintToken } from '../kernel/crypto.js';
import { ServiceError } from '../kernel/errors.js';
import { type Random, systemClock, systemRandom } from '../kernel/system.js';
import type { Store } from '../model/repositories.js';
import { isCommonPassword, MIN_NEW_PASSWORD_LENGTH } from './common-passwords.js';
import { normalizeEmail } from './normalize-email.js';
import type { PasswordHasher } from './password-hasher-port.js';
import {
  type AccountThrottles,
  createSignInGuard,
  defaultAccountThrottles,
  tooManyAttempts,
} from './sign-in-guard.js';
import { createAccountTimeZones, type TimeZoneView } from './time-zone.js';

export { type AccountThrottles, defaultAccountThrottles } from './sign-in-guard.js';

export const ACCESS_TOKEN_TTL_S = 15 * 60;
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const APP_ROLE = 'svc_user';

export interface AccountsOptions {
  store: Store;
  hasher: PasswordHasher;
  /** HMAC key for access JWTs (HS256), at least 32 bytes. */
  jwtSecret: Uint8Array;
  /** JWT issuer, e.g. the base URL. */
  issuer: string;
  now?: () => number;
  /** Randomness for ids and tokens (default: the OS CSPRNG). */
  random?: Random;
  newId?: (prefix: string) => string;
  /**
   * `closed` (SVC_SIGNUP=closed): `signUp` refuses with SIGNUP_CLOSED; `createUser` (the operator's
   * `svc user add`) still works. Default `open`.
   */
  signup?: 'open' | 'closed';
  /** Wrong-password back-off per account and per address, and the sign-up rate per address. */
  throttles?: Partial<AccountThrottles>;
}

/** Who is signing in or up: the address throttles key on it (default `unknown`). */
export interface CredentialsInput {
  email: unknown;
  password: unknown;
  clientAddr?: string;
  /** The device token an earlier sign-in of this account gave this device (ADR 0249); optional. */
  device_token?: unknown;
}

export interface SessionTokens {
  access_token: string;
  token_type: 'bearer';
  /** Seconds until the access token expires (900). */
  expires_in: number;
  /** `svc_ar_...`, usable once: each refresh returns a new one. */
  refresh_token: string;
  user: { id: string; email: string };
  /**
   * `svc_dv_...` (sign-in and sign-up only): keep it on this device and send it with the next sign-in;
   * while strangers' wrong passwords slow the account down, this device is not held back (ADR 0249).
   */
  device_token?: string;
}

/** Who an app access token speaks for. */
export interface AppPrincipal {
  userId: string;
  sessionFamily: string;
}

export interface Accounts {
  /** Refuses the most common passwords; `TOO_MANY_ATTEMPTS` past the sign-up rate of the address. */
  signUp(input: CredentialsInput): Promise<SessionTokens>;
  /**
   * `TOO_MANY_ATTEMPTS` (before the password is checked) while the address, or the account from a device
   * without its device token, is backing off; a device with the account's device token waits only for its
   * own wrong passwords.
   */
  signIn(input: CredentialsInput): Promise<SessionTokens>;
  refresh(refreshToken: unknown): Promise<SessionTokens>;
  /** Ends this sign-in (its access and refresh tokens stop at once). */
  signOut(principal: AppPrincipal): Promise<void>;
  /**
   * Ends every sign-in of the account, this one included, and forgets its devices' push subscriptions (a
   * signed-out phone must not keep buzzing). Agents and their connections stay.
   */
  signOutEverywhere(principal: AppPrincipal): Promise<void>;
  verifyAccess(token: string | null | undefined): Promise<AppPrincipal>;
  /** Checks the password again, then deletes the user and every row they own. */
  deleteAccount(principal: AppPrincipal, password: unknown): Promise<void>;
  /** `GET /me`: the signed-in account as the app shows it, with its time zone (ADR 0253). */
  me(userId: string): Promise<{ id: string; email: string; created_at: string } & TimeZoneView>;
  /**
   * `PUT /me/time-zone`: a device reports its zone (`how: 'report'`, kept unless the person pinned one) or
   * the person picks one in settings (`pin`) or goes back to following the devices (`follow`).
   */
  setTimeZone(userId: string, input: { time_zone: unknown; how: unknown }): Promise<TimeZoneView>;
  /** For the operator CLI: creates an account without signing in. */
  createUser(input: { email: unknown; password: unknown }): Promise<{ id: string; email: string }>;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * @example
 * ```ts
 * const accounts = createAccounts({ store, hasher: createArgon2idHasher(), jwtSecret, issuer: baseUrl });
 * const s = await accounts.signUp({ email: 'ada@example.com', password: 'a long passphrase' });
 * const me = await accounts.verifyAccess(s.access_token); // { userId, sessionFamily }
 * ```
 */
export function createAccounts(options: AccountsOptions): Accounts {
  const { store, hasher, jwtSecret, issuer } = options;
  const profile = accountProfile(store, hasher);
  if (jwtSecret.byteLength < 32) throw new Error('createAccounts: jwtSecret must be at least 32 bytes.');
  // One HMAC key for the process: given the raw bytes, jose imported a key on every sign and verify, a third
  // of a request's token check (ADR 0205).
  const hmacKey = crypto.subtle.importKey('raw', jwtSecret, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
  hmacKey.catch(() => undefined);
  const verified = createVerifiedTokens();
  const now = options.now ?? systemClock;
  const random = options.random ?? systemRandom;
  const newId = options.newId ?? ((prefix: string) => defaultNewId(prefix, random));
  const throttles = { ...defaultAccountThrottles(now), ...options.throttles };
  const guard = createSignInGuard({ secret: jwtSecret, throttles, random });
  const invalidRefresh = () =>
    new ServiceError(
      'INVALID_REFRESH_TOKEN',
      'That refresh token is unknown, used or expired: sign in again.',
    );

  async function issue(
    userId: string,
    email: string,
    familyId: string,
    refreshToken: string,
  ): Promise<SessionTokens> {
    const iat = Math.floor(now() / 1000);
    const access = await new SignJWT({ role: APP_ROLE, sid: familyId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(userId)
      .setIssuer(issuer)
      .setAudience(APP_ROLE)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ACCESS_TOKEN_TTL_S)
      .sign(await hmacKey);
    return {
      access_token: access,
      token_type: 'bearer',
      expires_in: ACCESS_TOKEN_TTL_S,
      refresh_token: refreshToken,
      user: { id: userId, email },
    };
  }

  async function startSession(userId: string, email: string) {
    const refreshToken = mintToken('svc_ar_', random);
    const familyId = newId('fam_');
    const at = now();
    await store.sessions.create({
      id: newId('ses_'),
      userId,
      familyId,
      refreshHash: hashSecret(refreshToken),
      createdAt: at,
      expiresAt: at + REFRESH_TOKEN_TTL_MS,
      usedAt: null,
      revokedAt: null,
    });
    return issue(userId, email, familyId, refreshToken);
  }

  const createUser = (input: { email: unknown; password: unknown }) =>
    createUserRow({ store, hasher, now, newId }, input);

  const accounts: Accounts = {
    createUser,
    async signUp(input) {
      if (options.signup === 'closed') {
        throw new ServiceError(
          'SIGNUP_CLOSED',
          'Sign-ups are closed on this service; ask its operator for an account (`svc user add`).',
        );
      }
      const d = await throttles.signUps.take(input.clientAddr ?? 'unknown');
      if (!d.ok) throw tooManyAttempts(d, 'Too many new accounts from this address');
      const user = await createUser(input);
      return { ...(await startSession(user.id, user.email)), device_token: guard.newDeviceToken(user.email) };
    },

    async signIn(input) {
      const { email, password } = checkCredentials(input);
      // Asked before the password is looked at: while backing off, even the right one waits (except on a
      // device that holds this account's device token: it waits only for its own wrong tries).
      const attempt = await guard.before(email, input.clientAddr ?? 'unknown', input.device_token);
      const user = await store.users.findByEmail(email);
      // Hash even for an unknown email so the response time does not reveal which emails exist.
      const ok = await hasher.verify(user?.passwordHash ?? DUMMY_HASH, password);
      if (!user || !ok) {
        await guard.failed(attempt);
        throw new ServiceError('INVALID_CREDENTIALS', 'Wrong email or password.');
      }
      const deviceToken = await guard.succeeded(attempt);
      if (user.suspendedAt !== null) throw new ServiceError('SUSPENDED', 'This account is suspended.');
      return { ...(await startSession(user.id, user.email)), device_token: deviceToken };
    },

    async refresh(refreshToken) {
      if (typeof refreshToken !== 'string' || !refreshToken.startsWith('svc_ar_')) throw invalidRefresh();
      const session = await store.sessions.findByRefreshHash(hashSecret(refreshToken));
      if (!session) throw invalidRefresh();
      const at = now();
      if (session.usedAt !== null) {
        // A used refresh token came back: someone holds a copy. End the whole sign-in.
        await store.sessions.revokeFamily(session.familyId, at);
        throw invalidRefresh();
      }
      if (session.revokedAt !== null || session.expiresAt <= at) throw invalidRefresh();
      const user = await store.users.findById(session.userId);
      if (!user) throw invalidRefresh();
      if (user.suspendedAt !== null) throw new ServiceError('SUSPENDED', 'This account is suspended.');
      const next = mintToken('svc_ar_', random);
      const rotated = await store.sessions.rotate(
        session.id,
        {
          id: newId('ses_'),
          userId: user.id,
          familyId: session.familyId,
          refreshHash: hashSecret(next),
          createdAt: at,
          expiresAt: at + REFRESH_TOKEN_TTL_MS,
          usedAt: null,
          revokedAt: null,
        },
        at,
      );
      if (!rotated) {
        await store.sessions.revokeFamily(session.familyId, at);
        throw invalidRefresh();
      }
      return issue(user.id, user.email, session.familyId, next);
    },

    async signOut(principal) {
      await store.sessions.revokeFamily(principal.sessionFamily, now());
    },

    async signOutEverywhere(principal) {
      await store.sessions.revokeUser(principal.userId, now());
      for (const sub of await store.push.listSubscriptions(principal.userId)) {
        await store.push.removeSubscription(principal.userId, sub.endpoint);
      }
    },

    async verifyAccess(token) {
      const unauthorized = (why: string) => new ServiceError('UNAUTHORIZED', why);
      if (!token) throw unauthorized('Sign in first: send Authorization: Bearer <access_token>.');
      let payload = verified.get(token, now());
      if (!payload) {
        try {
          ({ payload } = await jwtVerify(token, await hmacKey, {
            issuer,
            audience: APP_ROLE,
            algorithms: ['HS256'],
            currentDate: new Date(now()),
          }));
        } catch (err) {
          if (err instanceof joseErrors.JWTExpired)
            throw unauthorized('The access token expired: refresh it.');
          throw unauthorized('The access token is not valid: sign in again.');
        }
        verified.add(token, payload);
      }
      if (payload.role !== APP_ROLE || typeof payload.sub !== 'string' || typeof payload.sid !== 'string') {
        throw unauthorized('The access token is not an app token: sign in again.');
      }
      if (!(await store.sessions.familyLive(payload.sid, now()))) {
        throw unauthorized('This sign-in has ended: sign in again.');
      }
      return { userId: payload.sub, sessionFamily: payload.sid };
    },

    ...profile,
  };
  return accounts;
}

/** The account's own page: who it is (with its time zone), the zone setting, and deletion. */
function accountProfile(
  store: Store,
  hasher: PasswordHasher,
): Pick<Accounts, 'me' | 'setTimeZone' | 'deleteAccount'> {
  const zones = createAccountTimeZones(store);
  return {
    async me(userId) {
      const u = await store.users.findById(userId);
      if (!u) throw new ServiceError('UNAUTHORIZED', 'This account no longer exists.');
      return {
        id: u.id,
        email: u.email,
        created_at: new Date(u.createdAt).toISOString(),
        ...(await zones.get(u.id)),
      };
    },

    setTimeZone: (userId, input) => zones.set(userId, input),

    async deleteAccount(principal, password) {
      const user = await store.users.findById(principal.userId);
      if (!user) throw new ServiceError('UNAUTHORIZED', 'This account no longer exists.');
      if (typeof password !== 'string' || !(await hasher.verify(user.passwordHash, password))) {
        throw new ServiceError('INVALID_CREDENTIALS', 'Type your password to confirm deleting the account.', {
          field: 'password',
        });
      }
      await store.users.delete(user.id);
    },
  };
}

/** The email and password of a sign-in or sign-up, checked and the email normalised. */
function checkCredentials(input: { email: unknown; password: unknown }) {
  if (
    typeof input.email !== 'string' ||
    !EMAIL.test(input.email.trim()) ||
    input.email.length > 254 ||
    // NUL and other controls: an address that prints differently from what is stored.
    /\p{Cc}/u.test(input.email)
  ) {
    throw new ServiceError('INVALID_INPUT', 'email must be an address like ada@example.com.', {
      field: 'email',
    });
  }
  if (typeof input.password !== 'string' || input.password.length < 8 || input.password.length > 1024) {
    throw new ServiceError('INVALID_INPUT', 'password must be 8 to 1024 characters.', { field: 'password' });
  }
  return { email: normalizeEmail(input.email), password: input.password };
}

/**
 * A new password's rules (ADR 0249): at least {@link MIN_NEW_PASSWORD_LENGTH} characters, not among the
 * 100,000 most common leaked passwords (nor one of them with digits or symbols added), not the email's name.
 */
function checkNewPassword(email: string, password: string): void {
  if (password.length < MIN_NEW_PASSWORD_LENGTH) {
    throw new ServiceError(
      'INVALID_INPUT',
      `A new password needs at least ${MIN_NEW_PASSWORD_LENGTH} characters; a few unrelated words are easy to remember.`,
      { field: 'password' },
    );
  }
  if (isCommonPassword(password) || password.toLowerCase() === email.split('@')[0]) {
    throw new ServiceError(
      'INVALID_INPUT',
      'That password is on the lists of leaked passwords guessers try first; choose another, for example three unrelated words.',
      { field: 'password' },
    );
  }
}

async function createUserRow(
  deps: { store: Store; hasher: PasswordHasher; now: () => number; newId: (prefix: string) => string },
  input: { email: unknown; password: unknown },
): Promise<{ id: string; email: string }> {
  const { email, password } = checkCredentials(input);
  checkNewPassword(email, password);
  if (await deps.store.users.findByEmail(email)) {
    throw new ServiceError('EMAIL_TAKEN', `An account with ${email} already exists; sign in instead.`, {
      field: 'email',
    });
  }
  const user = await deps.store.users.create({
    id: deps.newId('usr_'),
    email,
    passwordHash: await deps.hasher.hash(password),
    firstName: null,
    createdAt: deps.now(),
    suspendedAt: null,
  });
  return { id: user.id, email: user.email };
}

// A valid argon2id hash of a random string, verified against when the email is unknown.
const DUMMY_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$tW2xKNMOf36aa6XO9DSVYQ$Q1EdNRBycqSJqIqTBWGxpC+dJgULy/eA4lb2/ZHQAdQ';

/** Access tokens whose signature and fixed claims were checked; more are dropped all at once. */
const VERIFIED_TOKENS_MAX = 10_000;

/**
 * Tokens whose signature, issuer, audience and algorithm already passed: a token's bytes never verify
 * differently, so only the time claims are checked again on a hit (a token past its `exp` is verified in
 * full, which answers the same error as before). Revocation is not a property of the token: the session
 * family is looked up on every request, cached or not.
 */
function createVerifiedTokens() {
  const seen = new Map<string, Record<string, unknown>>();
  return {
    get(token: string, nowMs: number): Record<string, unknown> | undefined {
      const payload = seen.get(token);
      if (!payload) return undefined;
      if ((payload.exp as number) > Math.floor(nowMs / 1000)) return payload;
      seen.delete(token);
      return undefined;
    },
    add(token: string, payload: Record<string, unknown>) {
      // Only the shape this service signs (exp, no nbf) is kept; anything else is verified every time.
      if (typeof payload.exp !== 'number' || payload.nbf !== undefined) return;
      if (seen.size >= VERIFIED_TOKENS_MAX) seen.clear();
      seen.set(token, payload);
    },
  };
}
