// @screen-service/push public API: the buzz rules (who is buzzed, when, with what), subscriptions, the outbox
// sender, and the Web Push transport that delivers. Every export here is public; nothing else is.

export {
  decodeSubscriptionKeys,
  type EncryptOptions,
  encryptAes128gcm,
  MAX_PAYLOAD_BYTES,
  type SubscriptionKeys,
} from './aes128gcm.js';
export { PushConfigError, type PushErrorCode } from './errors.js';
export {
  MAX_NOTIFICATION_ACTIONS,
  type NotificationChoice,
  type ScreenActions,
  screenActions,
  staleBody,
} from './push-actions.js';
export {
  attentionWait,
  createPushAttention,
  DEFAULT_PUSH_SETTINGS,
  localMinutes,
  type PushAttention,
  type PushSettingsView,
  parseSettings,
  quietUntil,
  toSettingsView,
} from './push-attention.js';
export {
  createPushDispatcher,
  type PushDispatcher,
  type PushDispatcherOptions,
  type PushEvent,
  type PushTickReport,
  threadTopic,
} from './push-dispatcher.js';
export type { PinnedAddress, PostResult } from './push-poster.js';
export {
  type BuzzInput,
  DEFAULT_COLLAPSE_WINDOW_MS,
  MAX_PUSH_ATTEMPTS,
  MESSAGE_TTL_SECONDS,
  notificationBody,
  PRESENCE_TTL_MS,
  type PushPayload,
  REVOKED_TTL_SECONDS,
  retryDelayMs,
  screenTitle,
  shouldBuzz,
  threadTag,
  threadUrl,
} from './push-rules.js';
export {
  createPushService,
  type PushService,
  type PushServiceOptions,
  type PushStatus,
  type PushSubscriptionView,
  type SubscribeInput,
  toSubscriptionView,
} from './push-service.js';
export type { PushOutcome, PushRequest, PushTransport, PushUrgency } from './push-transport.js';
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
