// @screen-service/push public API. Every export here is public; nothing else is.

export {
  decodeSubscriptionKeys,
  type EncryptOptions,
  encryptAes128gcm,
  MAX_PAYLOAD_BYTES,
  type SubscriptionKeys,
} from './aes128gcm.js';
export { PushConfigError, type PushErrorCode } from './errors.js';
export type { PinnedAddress, PostResult } from './push-poster.js';
export {
  checkVapidKeys,
  generateVapidKeys,
  loadVapidKeys,
  VAPID_FILE,
  type VapidKeys,
} from './vapid.js';
export { VAPID_ENV, type VapidSettings, vapidSettings } from './vapid-env.js';
export {
  type ClosablePushTransport,
  createWebPushTransport,
  outcomeOf,
  outcomeOfPost,
  parseRetryAfter,
  type WebPushTransportOptions,
} from './web-push-transport.js';
export {
  createWorkerPoolTransport,
  type WorkerPoolTransportOptions,
} from './worker-pool-transport.js';
