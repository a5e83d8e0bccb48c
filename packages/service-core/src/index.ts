// @screen-service/service-core public API. Every export here is public; nothing else is.
export {
  ACCESS_TOKEN_TTL_S,
  type Accounts,
  type AccountsOptions,
  type AccountThrottles,
  APP_ROLE,
  type AppPrincipal,
  type CredentialsInput,
  createAccounts,
  defaultAccountThrottles,
  REFRESH_TOKEN_TTL_MS,
  type SessionTokens,
} from './accounts.js';
export {
  type AgentManagement,
  type AgentManagementOptions,
  type AgentsCaller,
  APP_ONLY_ACTIONS,
  type CreateInput as ManagementCreateInput,
  createAgentManagement,
  MANAGEMENT_UPDATE_FIELDS,
} from './agent-management.js';
export { freeHandle, profileNaming } from './agent-naming.js';
export {
  type AgentStatus,
  type AgentView,
  CONNECTED_WINDOW_MS,
  colorFromName,
  deriveStatus,
  HANDLE_PATTERN,
  slugify,
  toAgentView,
} from './agent-status.js';
export { type AgentRef, pickAgent, toAgentRef } from './agent-view.js';
export { cleanCardSummary, MAX_CARD_SKILLS } from './card-summary.js';
export { isCommonPassword } from './common-passwords.js';
export {
  type AccessTokenResolver,
  bearerToken,
  type ConnectionAuth,
  type ConnectionAuthOptions,
  type ConnectionPrincipal,
  createConnectionAuth,
} from './connection-auth.js';
export {
  type ConnectionState,
  connectionState,
  isConnectionLive,
  resolveAccessToken,
} from './connection-live.js';
export {
  type ConnectedAgent,
  type Core,
  type CoreOptions,
  createCore,
  type PushSenderOptions,
} from './core.js';
export {
  digestsEqual,
  hashSecret,
  mintPairingCode,
  mintToken,
  newId,
  normalizeCode,
  type TokenPrefix,
} from './crypto.js';
export { createDiskPhotoFiles } from './disk-photo-files.js';
export { cleanDisplayName } from './display-name.js';
export { isServiceError, ServiceError, type ServiceErrorCode } from './errors.js';
export {
  createFailureThrottle,
  type FailureThrottle,
  type FailureThrottleOptions,
  failureDelayMs,
  type ThrottleDecision,
} from './failure-throttle.js';
export { type GuardSettings, readGuardSettings } from './guard-settings.js';
export { createHostCheck, hostGuard } from './host-check.js';
export {
  createHostTransport,
  type HostMessage,
  type HostStreamHandlers,
  type HostTransport,
  type HostTransportOptions,
  type ReplyInput,
  type ReplyResult,
  type StreamEnd,
  type TurnInput,
  type TurnResult,
  WORKING_TTL_MS,
} from './host-transport.js';
export {
  type AddInput,
  type CardResult,
  type CommandsResult,
  createHosts,
  type HeartbeatResult,
  type HostAgent,
  type Hosts,
  type HostsOptions,
  MAX_TURN_ROWS,
  type SessionResult,
} from './hosts.js';
export {
  createHousekeepingScheduler,
  HOUSEKEEPING_INTERVAL_MS,
  type HousekeepingJob,
  type HousekeepingRun,
  type HousekeepingScheduler,
  type HousekeepingSchedulerOptions,
} from './housekeeping.js';
export {
  fromBodyParserError,
  fromStorageError,
  type HttpError,
  type HttpErrorBody,
  SERVICE_ERROR_CODES,
  SERVICE_ERROR_STATUS,
  STORAGE_FULL_MESSAGE,
  toHttpError,
  wireCode,
} from './http-errors.js';
export { hasImageSignature } from './image-signature.js';
export { type ImageSize, imageSize } from './image-size.js';
export { isoTime, isoTimeOrNull } from './iso-time.js';
export { JsonTooDeepError, jsonDepth, MAX_JSON_DEPTH, verifyJsonDepth } from './json-depth.js';
export { type LimitStore, memoryLimits } from './limits.js';
export {
  createManagementTokens,
  MANAGEMENT_TOKEN_PREFIX,
  type ManagementTokenPrincipal,
  type ManagementTokens,
  type ManagementTokensOptions,
  type ManagementTokenView,
} from './management-tokens.js';
export { MOUNTS, type ServiceUrls, serviceUrls } from './mounts.js';
export {
  createNotifier,
  type LocalNotifier,
  type Notifier,
  type ThreadEvent,
  type ThreadListener,
} from './notifier.js';
export {
  createPairing,
  type MintedCode,
  PAIR_FAILURE_WINDOW_MS,
  PAIR_MAX_FAILURES,
  PAIRING_CODE_TTL_MS,
  type PairInput,
  type Pairing,
  type PairingOptions,
  type PairResult,
} from './pairing.js';
export type { PasswordHasher } from './password-hasher-port.js';
export {
  type AgentListItem,
  type BindAgentInput,
  type ConnectionView,
  type CreateAgentInput,
  createPersonAgents,
  type PersonAgents,
  type PersonAgentsOptions,
  type UpdateAgentInput,
} from './person-agents.js';
export {
  createPersonThreads,
  deviceId,
  MAX_PAGE,
  MAX_PHOTOS_PER_ANSWER,
  type MessageView,
  type PersonThreads,
  type ThreadPage,
} from './person-threads.js';
export {
  checkPhotoUpload,
  createPhotos,
  createSignedPhotoLinks,
  MAX_PHOTO_BYTES,
  PHOTO_LINK_TTL_MS,
  PHOTO_QUOTA_BYTES,
  PHOTO_TYPES,
  PHOTO_UPLOAD_RATE,
  type PhotoFiles,
  type PhotoLinks,
  type Photos,
  type PhotosOptions,
} from './photos.js';
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
export {
  createRateLimiter,
  type RateDecision,
  type RateLimiter,
  type RateLimitOptions,
} from './rate-limiter.js';
export {
  AGENT_COLORS,
  type AgentCardSummary,
  type AgentColor,
  type AgentRecord,
  CONNECTOR_KINDS,
  type CommandEntry,
  type ConnectorKind,
  type ConnectorRecord,
  type ConnectorVia,
  type GrantRecord,
  type ManagementTokenRecord,
  type MessageKind,
  type MessageRecord,
  type MessageSender,
  type NativeAgentRecord,
  type OAuthClientAuthMethod,
  type OAuthClientRecord,
  type OAuthRequestRecord,
  type OAuthRequestStatus,
  type OAuthTokenKind,
  type OAuthTokenRecord,
  type PairingCodeRecord,
  type PhotoRecord,
  type PushDeliveryRecord,
  type PushIntentRecord,
  type PushKind,
  type PushSubscriptionRecord,
  type ScreenRecord,
  type ScreenTap,
  type SessionRecord,
  type ShareInviteRecord,
  type ShareTemplateItemRecord,
  type ShareTemplateRecord,
  type ThreadStateRecord,
  type UserRecord,
} from './records.js';
export {
  PAIR_FAILURE_WINDOW_MS as CODE_FAILURE_WINDOW_MS,
  PAIR_MAX_FAILURES as CODE_MAX_FAILURES,
  type RedeemCodeInput,
  redeemCode,
} from './redeem-code.js';
export type {
  AgentPatch,
  AgentRepository,
  CompletePairing,
  ConnectorRepository,
  ConnectorWithAccount,
  HousekeepingRepository,
  ManagementTokenRepository,
  NativeAgentRepository,
  NewAgent,
  NewGrant,
  NewMessage,
  NewPush,
  NewScreen,
  OAuthDecision,
  OAuthRepository,
  PairingRepository,
  PhotoRepository,
  PushRepository,
  RelayRepository,
  RelayTableKey,
  RelayTableMeta,
  SandboxWrite,
  SessionRepository,
  ShareRepository,
  Store,
  ThreadKey,
  ThreadPageQuery,
  ThreadRepository,
  UserRepository,
} from './repositories.js';
export {
  LAPSED_SIGN_IN_GRACE_MS,
  PAIR_ATTEMPT_WINDOW_MS,
  RELAY_RETENTION_MS,
  type RetentionDeps,
  retentionJobs,
  UNATTACHED_PHOTO_MS,
} from './retention.js';
export {
  type ClientSafeRule,
  checkClientSafe,
  cleanSandboxReport,
  SANDBOX_REPORT_MAX_BYTES,
  type SandboxReport,
  type SandboxVerdict,
} from './sandbox-report.js';
export {
  defaultScreenLines,
  type ScreenLinesError,
  type ScreenLinesPort,
  type ScreenLinesResult,
} from './screen-lines-port.js';
export {
  type AgentAccess,
  dropMentions,
  hasMention,
  isOwnerOnlyTap,
  parseSessionKey,
  sessionKey,
  sharedAgentRefusal,
  threadAccess,
} from './shared-access.js';
export { grantedView, ownedFields, type SharedFields } from './shared-rows.js';
export {
  type ClaimResult,
  createRevokedGrantsJob,
  createShares,
  type GivenGrantView,
  type GrantInput,
  type InviteCreated,
  type InvitePlan,
  type InvitePreview,
  notClientSafe,
  REVOKED_GRANT_RETENTION_MS,
  readAnswers,
  SHARE_WHY_TEXT,
  type Shares,
  type SharesOptions,
  type ShareWhy,
  shareWhy,
  type TemplateInput,
  type TemplateItemInput,
  type TemplateView,
} from './shares.js';
export { createStatusWatch, type StatusWatch, type StatusWatchOptions } from './status-watch.js';
export { type Clock, type Random, seededRandom, systemClock, systemRandom } from './system.js';
export { drawPlain } from './tables/draw-plain.js';
export { isReadOnly, type ReplyPiece, type SplitReply, splitReply } from './tables/reply-split.js';
export {
  createTables,
  type GiveInput,
  type GiveResult,
  type HoldingsResult,
  type LinesCallResult,
  MAX_READS_IN_A_ROW,
  MAX_TABLES_CALL_CHARS,
  type PendingView,
  type RefusedLine,
  type ReplyReadResult,
  type ReplyTextResult,
  TABLES_CALLS_PER_MINUTE,
  type TableListItem,
  type Tables,
  type TablesCallInput,
  type TablesCallResult,
  type TablesDeps,
  type TablesResult,
  UNHELD_TABLE_TTL_MS,
} from './tables/tables.js';
export { type ComputedTap, computeTap, isQuiet } from './tap-event.js';
export type { Answer, ThreadDeps, ThreadTarget } from './thread-core.js';
export {
  type AnswersInput,
  type AnswersResult,
  createThreadOps,
  MAX_LINES_CHARS,
  MAX_TEXT_CHARS,
  MAX_WAIT_SECONDS,
  type SayInput,
  type SayResult,
  type ShowInput,
  type ShowResult,
  type TapInput,
  type TapResult,
  type ThreadOps,
  type ThreadSummary,
  type ThreadsResult,
  tapsOf,
  type WriteExtras,
} from './thread-ops.js';
export {
  type CachedPage,
  createThreadPageCache,
  type PageKey,
  type ThreadPageCache,
  type ThreadPageCacheOptions,
} from './thread-page-cache.js';
export {
  createScreenViewCache,
  messageViewJson,
  type ScreenOwner,
  type ScreenViewCache,
  type ScreenViewCacheOptions,
  screenViewJson,
} from './thread-page-text.js';
export { type WaitForAnswersOptions, waitForAnswers } from './wait-for-answers.js';
