// @screen-service/core/push: Web Push subscriptions, the buzz rules and the outbox sender.
// Every export here is public API.

export {
  createPushService,
  type PushService,
  type PushServiceOptions,
  type PushStatus,
  type PushSubscriptionView,
  type SubscribeInput,
  toSubscriptionView,
} from './push.js';
export {
  MAX_NOTIFICATION_ACTIONS,
  type NotificationChoice,
  type ScreenActions,
  screenActions,
  staleBody,
} from './push-actions.js';
export {
  createNotificationAnswers,
  type NotificationAnswerInput,
  type NotificationAnswerResult,
  type NotificationAnswers,
} from './push-answers.js';
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
export type { PushOutcome, PushRequest, PushTransport, PushUrgency } from './push-transport.js';
