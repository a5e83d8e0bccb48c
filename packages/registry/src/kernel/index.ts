// @screen-service/registry/kernel: errors, clock and randomness, secrets, limits and the change notifier every context shares.
// Every export here is public API.
export {
  digestsEqual,
  hashSecret,
  mintName,
  mintPairingCode,
  mintSecret,
  mintToken,
  newId,
  newTimedId,
  normalizeCode,
  type TokenPrefix,
} from './crypto.js';
export { cleanDisplayName } from './display-name.js';
export { isServiceError, ServiceError, type ServiceErrorCode } from './errors.js';
export {
  createFailureThrottle,
  type FailureThrottle,
  type FailureThrottleOptions,
  failureDelayMs,
  type ThrottleDecision,
} from './failure-throttle.js';
export { isoTime, isoTimeOrNull } from './iso-time.js';
export { type LimitStore, memoryLimits } from './limits.js';
export {
  createNotifier,
  type LocalNotifier,
  type Notifier,
  type ThreadEvent,
  type ThreadListener,
} from './notifier.js';
export {
  createRateLimiter,
  type RateDecision,
  type RateLimiter,
  type RateLimitOptions,
  retryAfterS,
} from './rate-limiter.js';
export { type Clock, type Random, seededRandom, systemClock, systemRandom } from './system.js';
