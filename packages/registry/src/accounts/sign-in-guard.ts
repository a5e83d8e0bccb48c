// The throttles in front of a sign-in (ADR 0249): a guesser is stopped per address and per address and
// account; the account's own limit slows a stranger's device but never a device that signed in before, which
// proves it with a device token, so nobody can lock the owner out by typing wrong passwords.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mintSecret } from '../kernel/crypto.js';
import { ServiceError } from '../kernel/errors.js';
import type { FailureThrottle, ThrottleDecision } from '../kernel/failure-throttle.js';
import { type LimitStore, memoryLimits } from '../kernel/limits.js';
import type { RateLimiter } from '../kernel/rate-limiter.js';
import { type Random, systemClock } from '../kernel/system.js';

/** The guards in front of the password check; {@link defaultAccountThrottles} are the service's values. */
export interface AccountThrottles {
  /** Wrong passwords per email (known or not), from devices without a device token of the account. */
  byAccount: FailureThrottle;
  /** Wrong passwords per client address. */
  byAddress: FailureThrottle;
  /** Wrong passwords per client address and email: one address guessing one account stops soonest. */
  byAddressAccount: FailureThrottle;
  /** Wrong passwords per device token (a device that signed in before, or a copy of its token). */
  byDevice: FailureThrottle;
  /** Accounts created per client address. */
  signUps: RateLimiter;
}

/**
 * 5 free wrong passwords per account, per address and account and per known device, 20 per address; then
 * waits of 1 s doubling up to 15 minutes (forgotten after a day without a failure); 20 sign-ups per address
 * at once, then 20 an hour.
 */
export function defaultAccountThrottles(
  now: () => number = systemClock,
  limits: LimitStore = memoryLimits,
): AccountThrottles {
  const backOff = { baseDelayMs: 1000, maxDelayMs: 15 * 60_000, forgetAfterMs: 24 * 3600_000, now };
  return {
    byAccount: limits.failureThrottle('sign-in-account', { freeFailures: 5, ...backOff }),
    byAddress: limits.failureThrottle('sign-in-address', { freeFailures: 20, ...backOff }),
    byAddressAccount: limits.failureThrottle('sign-in-address-account', { freeFailures: 5, ...backOff }),
    byDevice: limits.failureThrottle('sign-in-device', { freeFailures: 5, ...backOff }),
    signUps: limits.rateLimiter('sign-up', { burst: 20, perMinute: 20 / 60, now }),
  };
}

/** One sign-in try as the guard saw it before the password was checked. */
export interface SignInAttempt {
  email: string;
  addr: string;
  /** The device id of a valid device token for this email, else null (a new device). */
  device: string | null;
  deviceToken: string | null;
}

export interface SignInGuard {
  /** Throws `TOO_MANY_ATTEMPTS` (with `retryAfterS`) before the password is looked at. */
  before(email: string, addr: string, deviceToken: unknown): Promise<SignInAttempt>;
  failed(attempt: SignInAttempt): Promise<void>;
  /** Clears the counts; answers the device token the client keeps (the one it sent, or a new one). */
  succeeded(attempt: SignInAttempt): Promise<string>;
  /** A device token for a device that just made the account (sign-up). */
  newDeviceToken(email: string): string;
}

const TOKEN = /^svc_dv_([A-Za-z0-9_-]{16,64})\.([A-Za-z0-9_-]{43})$/;

/** Sent for every refusal: the wait is the longest of the throttles that refused. */
export function tooManyAttempts(d: ThrottleDecision & { ok: false }, what: string): ServiceError {
  return new ServiceError('TOO_MANY_ATTEMPTS', `${what}; try again in ${d.retryAfterS} s.`, {
    details: { retryAfterS: d.retryAfterS },
  });
}

/**
 * Makes the guard. A device token is `svc_dv_<id>.<mac>`, the MAC an HMAC-SHA256 of the account's email and
 * the id under the service secret: stateless, valid only for the account it was given to.
 *
 * @example
 * ```ts
 * const guard = createSignInGuard({ secret, throttles: defaultAccountThrottles() });
 * const attempt = await guard.before(email, addr, input.device_token);
 * ok ? await guard.succeeded(attempt) : await guard.failed(attempt);
 * ```
 */
export function createSignInGuard(options: {
  secret: Uint8Array;
  throttles: AccountThrottles;
  random: Random;
}): SignInGuard {
  const { throttles } = options;
  const mac = (email: string, id: string) =>
    createHmac('sha256', options.secret).update(`svc-device\n${email}\n${id}`).digest('base64url');
  const deviceOf = (email: string, token: unknown): string | null => {
    const m = typeof token === 'string' ? TOKEN.exec(token) : null;
    if (!m) return null;
    const expected = Buffer.from(mac(email, m[1]!));
    const given = Buffer.from(m[2]!);
    return expected.length === given.length && timingSafeEqual(expected, given) ? m[1]! : null;
  };
  const newDeviceToken = (email: string) => {
    const id = mintSecret('', options.random);
    return `svc_dv_${id}.${mac(email, id)}`;
  };
  return {
    newDeviceToken,
    async before(email, addr, deviceToken) {
      const device = deviceOf(email, deviceToken);
      // A known device answers only for itself; a new one also for the account and its address.
      const decisions = device
        ? [await throttles.byDevice.check(device)]
        : [
            await throttles.byAddressAccount.check(`${addr} ${email}`),
            await throttles.byAddress.check(addr),
            await throttles.byAccount.check(email),
          ];
      const refused = decisions.filter((d): d is ThrottleDecision & { ok: false } => !d.ok);
      if (refused.length > 0) {
        const longest = refused.reduce((a, b) => (b.retryAfterS > a.retryAfterS ? b : a));
        throw tooManyAttempts(longest, 'Too many wrong passwords');
      }
      return { email, addr, device, deviceToken: device ? (deviceToken as string) : null };
    },
    async failed(a) {
      if (a.device) return void (await throttles.byDevice.fail(a.device));
      await throttles.byAddressAccount.fail(`${a.addr} ${a.email}`);
      await throttles.byAddress.fail(a.addr);
      await throttles.byAccount.fail(a.email);
    },
    async succeeded(a) {
      // A known device clears only its own count: the stranger's tries keep slowing new devices.
      if (a.device) {
        await throttles.byDevice.succeed(a.device);
        return a.deviceToken!;
      }
      await throttles.byAccount.succeed(a.email);
      await throttles.byAddressAccount.succeed(`${a.addr} ${a.email}`);
      return newDeviceToken(a.email);
    },
  };
}
