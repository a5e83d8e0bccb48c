// createCore: every rule of the service wired over one Store, clock, randomness, hasher and secret. The
// server composes it with OAuth and mounts adapters on it; every package's tests build it through /testing.

import type { Tables, TableWorkLimits } from '@screen-service/agent-tables';
import {
  type AgentManagement,
  createAgentManagement,
  createManagementTokens,
  type ManagementTokens,
} from '@screen-service/management-tokens';
import {
  createPhotos,
  createSignedPhotoLinks,
  PHOTO_UPLOAD_RATE,
  type PhotoFiles,
  type PhotoLinks,
  type Photos,
} from '@screen-service/photos';
import type { PushDispatcher, PushDispatcherOptions, PushTransport } from '@screen-service/push';
import { createPushService, type PushService } from '@screen-service/push';
import { createReceipts, type Receipts } from '@screen-service/receipts';
import type { PasswordHasher } from '@screen-service/registry/accounts';
import {
  type Accounts,
  type AppPrincipal,
  createAccounts,
  defaultAccountThrottles,
} from '@screen-service/registry/accounts';
import { createPersonAgents, type PersonAgents, sharedAgentRefusal } from '@screen-service/registry/agents';
import { type ConnectionAuth, createPairing, type Hosts, type Pairing } from '@screen-service/registry/hosts';
import {
  type Clock,
  createNotifier,
  type LimitStore,
  memoryLimits,
  type Notifier,
  type Random,
  systemClock,
  systemRandom,
} from '@screen-service/registry/kernel';
import type { AgentRecord, ScreenRecord, Store } from '@screen-service/registry/model';
import { type ServiceUrls, serviceUrls } from '@screen-service/registry/mounts';
import type { ScreenLinesPort } from '@screen-service/screen-rules';
import {
  connectAgent,
  pushSender,
  type Wiring,
  wireConnectionAuth,
  wireDeadlines,
  wireHosts,
  wireNotificationAnswers,
  wireTables,
} from './create-core-parts.js';
import type { HostTransport } from './host-messages/host-transport.js';
import type { StatusWatch } from './host-messages/status-watch.js';
import type { HousekeepingJob } from './housekeeping/housekeeping.js';
import { retentionJobs } from './housekeeping/retention.js';
import { createRevokedGrantsJob } from './sharing/share-writes.js';
import { createShares, type Shares } from './sharing/shares.js';
import type { DeadlineSweeper } from './threads/deadline-sweeper.js';
import { createPersonThreads, type PersonThreads } from './threads/person-threads.js';
import type { NotificationAnswers } from './threads/push-answers.js';
import { createThreadOps, HOST_MESSAGE_RATE, type ThreadOps } from './threads/thread-ops.js';

/** What {@link createCore} is built from. */
export interface CoreOptions {
  store: Store;
  /** Password hashing (argon2id from `@screen-service/registry/argon2` in production). */
  hasher: PasswordHasher;
  /** The service secret: signs app access tokens and photo links. */
  secret: Uint8Array;
  /** The public base URL, or every URL already built with `serviceUrls`. */
  urls: string | ServiceUrls;
  /** Where photo bytes live; without it uploads and photo reads answer `NOT_FOUND`-free errors. */
  photoFiles?: PhotoFiles;
  /** Default: the wall clock. */
  clock?: Clock;
  /** Default: the OS CSPRNG. */
  random?: Random;
  /** Sign the tap path's receipts in a worker thread (ADR 0288); default false: it pays only with a free core. */
  receiptWorker?: boolean;
  /** Default: @screen-service/screen-lines. */
  screenLines?: ScreenLinesPort;
  /** Tool calls accept OAuth access tokens (`svc_at_`) issued through this store; default true. */
  acceptAccessTokens?: boolean;
  /** Reports a photo file that could not be removed (it stays queued for the next sweep). */
  onPhotoRemoveError?: (file: string, err: unknown) => void;
  /** A deadline step that failed (it is tried again at the next pass), for the log (ADR 0260). */
  onDeadlineError?: (err: unknown) => void;
  /** Photo limits: largest upload and bytes per account (defaults 10 MB and 500 MB). */
  photoLimits?: { maxBytes?: number; quotaBytes?: number };
  /** Builds of the person's app, as the host API's `session` reports them (default `{}`). */
  appBuilds?: Record<string, string>;
  /** How often (real ms) the live status watch looks for hosts that went silent; default 5 s. */
  statusTickMs?: number;
  /** IANA zone relay tables resolve `today` and `now` in while the account has none (ADR 0253); default UTC. */
  tablesTimeZone?: string;
  /** One account's table work: rows scanned per minute, ms per call, ms between yields (ADR 0254). */
  tableWork?: Partial<TableWorkLimits>;
  /** The VAPID public key the app subscribes with; absent or null: push is not configured (nothing fails). */
  vapidPublicKey?: string | null;
  /** Push subscriptions: loopback endpoints (tests only, SVC_OUTBOUND_LOOPBACK) and the caps (ADR 0247). */
  pushEndpoints?: { allowLoopback?: boolean; maxPerAccount?: number; maxPerDevice?: number };
  /** SVC_SIGNUP: `closed` refuses the app's sign-up (the operator's `createUser` still works). Default `open`. */
  signup?: 'open' | 'closed';
  /** SVC_MESSAGES_PER_THREAD: rows kept per thread by housekeeping; absent = only the 90-day rule. */
  messagesPerThread?: number;
  /** Fan-out of thread changes; default in-process. Several instances share one (LISTEN/NOTIFY, ADR 0230). */
  notifier?: Notifier;
  /** Where rate buckets and throttles count; default in-process ({@link memoryLimits}). */
  limits?: LimitStore;
  /** Rows one connection may write into one thread (doc1's host message limit); default {@link HOST_MESSAGE_RATE}. */
  hostMessageRate?: { burst: number; perMinute: number };
  /** A task-augmented svc_answers' TTL and poll interval (ADR 0265); default a day and 2 s. */
  answerTasks?: { ttlMs?: number; pollMs?: number };
}

/** Options of {@link Core.createPushSender} (the store, clock, randomness and app URL come from the core). */
export type PushSenderOptions = Omit<
  PushDispatcherOptions,
  'store' | 'transport' | 'appUrl' | 'answerUrl' | 'now' | 'random'
>;

/** `svc connect`'s answer: where the host connects, its token (shown once) and the agent. */
export interface ConnectedAgent {
  mcp_url: string;
  connector_token: string;
  agent: { id: string; name: string; handle: string };
}

/** Every use case of the service, as the adapters call them. */
export interface Core {
  store: Store;
  notifier: Notifier;
  /** Where the rate buckets and throttles count (in-process, or shared by every instance). */
  limits: LimitStore;
  clock: Clock;
  random: Random;
  urls: ServiceUrls;
  accounts: Accounts;
  pairing: Pairing;
  agents: PersonAgents;
  threads: PersonThreads;
  threadOps: ThreadOps;
  /**
   * Runs screens' deadlines (ADR 0260): reminders, then the defaults. One per process: start it with the
   * server and stop it on shutdown; tests call `sweep()` after moving the clock.
   */
  deadlines: DeadlineSweeper;
  /** Signed receipts of answers (ADR 0261): the published keys, rotation, a thread's export. */
  receipts: Receipts;
  /** Push subscriptions, the settings page's status and the silent `revoked` push. */
  push: PushService;
  /**
   * The sender that drains the push outbox through `transport`; writes wake it. One per process: start
   * it with the server and stop it on shutdown.
   */
  createPushSender(transport: PushTransport, options?: PushSenderOptions): PushDispatcher;
  /** Answers from a notification's action with its single-use token (`POST /push/answer`, issue 39). */
  notificationAnswers: NotificationAnswers;
  connectionAuth: ConnectionAuth;
  /** Any live connection of any kind (hosts, bridges, MCP, OAuth): what the tables call accepts. */
  anyConnectionAuth: ConnectionAuth;
  photos: Photos;
  photoLinks: PhotoLinks;
  /** The host API's use cases (doc2 `add`, `heartbeat`, `commands`, `session`). */
  hosts: Hosts;
  /** Verifies host API calls: connector tokens (`svc_ct_`) only, any host kind. */
  hostAuth: ConnectionAuth;
  /** The message transport for hosts (ADR 0130). */
  hostTransport: HostTransport;
  /** Notices hosts going silent or coming back and tells open apps to redraw (status stays derived). */
  statusWatch: StatusWatch;
  /** Relay tables: the tables call every adapter ends in, and the person's table controls. */
  tables: Tables;
  /** Management tokens (`svc_mt_`): mint, list, revoke, verify. */
  managementTokens: ManagementTokens;
  /** The management API's use cases (doc2 `POST {agents_url}`), for the app and management tokens. */
  management: AgentManagement;
  /** Shared agents (doc2): templates, invites, grants, claims and revoke. */
  shares: Shares;
  /** `DELETE /me`: deletes the account's rows in one transaction, then its photo files (queued on failure). */
  deleteAccount(principal: AppPrincipal, password: unknown): Promise<void>;
  /**
   * `DELETE /agents/:id`: deletes the agent and its thread, then its photo files (queued on failure). Its
   * relay tables are deleted too, or with `keepTables` kept unheld for 30 days (doc3 "Table holding").
   */
  deleteAgent(userId: string, agentId: string, options?: { keepTables?: boolean }): Promise<void>;
  /**
   * The operator CLI's `svc connect`: creates an agent in the account of `email` and pairs it as an MCP
   * connection named `hostName`.
   *
   * @throws {ServiceError} `NOT_FOUND` (field `email`) when no account has that email.
   */
  connectAgent(input: { email: string; agent: string; hostName: string }): Promise<ConnectedAgent>;
  /** The retention rules as housekeeping jobs (ADR 0190), for the process's one scheduler. */
  housekeepingJobs: HousekeepingJob[];
  /** Aborted when the service begins shutting down: waiting calls and live streams end at once. */
  stopping: AbortController;
}

const noPhotoFiles: PhotoFiles = {
  write: async () => {
    throw new Error('createCore was built without photoFiles; pass photoFiles to store photos');
  },
  read: () => {
    throw new Error('createCore was built without photoFiles; pass photoFiles to read photos');
  },
  remove: async () => {
    throw new Error('createCore was built without photoFiles; pass photoFiles to remove photos');
  },
};

/** Sharing an agent: invites link to the app's invite page. */
function wireShares(w: Wiring, push: Core['push']) {
  return createShares({
    store: w.store,
    notifier: w.notifier,
    push,
    now: w.clock,
    random: w.random,
    onPushQueued: w.onPushQueued,
    ...w.screenLines,
    inviteLink: (token) => `${w.urls.baseUrl}/#/invite/${token}`,
  });
}

/**
 * Wires every rule over one store.
 *
 * @example
 * ```ts
 * const core = createCore({ store, hasher: createArgon2idHasher(), secret, urls: 'https://svc.example', photoFiles });
 * const principal = await core.connectionAuth.verify(bearerToken(req.headers.authorization));
 * await core.threadOps.show(principal, { lines: 'note "Hello"' });
 * ```
 */
export function createCore(options: CoreOptions): Core {
  const { store, hasher, secret } = options;
  const clock = options.clock ?? systemClock;
  const random = options.random ?? systemRandom;
  const urls = typeof options.urls === 'string' ? serviceUrls(options.urls) : options.urls;
  const notifier = options.notifier ?? createNotifier();
  const limits = options.limits ?? memoryLimits;
  const stopping = new AbortController();
  // Writes call this; it reaches whichever sender is running (none in most tests: rows wait in the outbox).
  const senders = new Set<PushDispatcher>();
  const onPushQueued = () => {
    for (const s of senders) s.wake();
  };
  const photoLinks = createSignedPhotoLinks({ secret, photosUrl: urls.photosUrl, now: clock });
  const linkPhotos = (photos: Parameters<PhotoLinks['sign']>[0]) => photoLinks.sign(photos);
  const pairing = createPairing({ store, now: clock, random });
  const agents = createPersonAgents({ store, pairing, notifier, now: clock, random });
  const accounts = createAccounts({
    store,
    hasher,
    jwtSecret: secret,
    issuer: urls.baseUrl,
    now: clock,
    random,
    throttles: defaultAccountThrottles(clock, limits),
    ...(options.signup ? { signup: options.signup } : {}),
  });
  const screenLines = options.screenLines ? { screenLines: options.screenLines } : {};
  const offThread = options.receiptWorker === true;
  const receipts = createReceipts({ store, secret, issuer: urls.baseUrl, now: clock, random, offThread });
  const w: Wiring = {
    options,
    store,
    notifier,
    clock,
    random,
    urls,
    limits,
    stopping,
    onPushQueued,
    linkPhotos,
    screenLines,
    receipts,
  };
  const tables = wireTables(w);
  const deadlines = wireDeadlines(w);
  const beforeTap = {
    beforeTap: (s: ScreenRecord, e: unknown) => tables.settleCard(s, e),
    screenTables: (a: AgentRecord, lines: string[], shared: boolean) => tables.screenWrites(a, lines, shared),
    receipts,
  };
  const threads = createPersonThreads({
    ...beforeTap,
    store,
    notifier,
    now: clock,
    random,
    photoLinks: linkPhotos,
    onPushQueued,
    ...screenLines,
  });
  const notificationAnswers = wireNotificationAnswers(w, beforeTap);
  const threadOps = createThreadOps({
    ...beforeTap,
    store,
    notifier,
    messageRate: limits.rateLimiter('host-messages', {
      ...(options.hostMessageRate ?? HOST_MESSAGE_RATE),
      now: clock,
    }),
    now: clock,
    random,
    photoLinks: linkPhotos,
    shutdown: stopping.signal,
    onPushQueued,
    onDeadlineSet: (at: number) => deadlines.wake(at),
    ...(options.answerTasks ? { answerTasks: options.answerTasks } : {}),
    ...screenLines,
  });
  const { statusWatch, onSeen, hosts, hostAuth, hostTransport } = wireHosts(w, threadOps);
  const push = createPushService({
    store,
    publicKey: options.vapidPublicKey ?? null,
    now: clock,
    random,
    onPushQueued,
    ...options.pushEndpoints,
  });
  const { connectionAuth, anyConnectionAuth } = wireConnectionAuth(w, onSeen);
  const photos = createPhotos({
    store,
    files: options.photoFiles ?? noPhotoFiles,
    links: photoLinks,
    now: clock,
    random,
    addPhoto: (userId, agentId, file) => threads.addPhoto(userId, agentId, file),
    uploadRate: limits.rateLimiter('photos', { ...PHOTO_UPLOAD_RATE, now: clock }),
    ...(options.onPhotoRemoveError ? { onRemoveError: options.onPhotoRemoveError } : {}),
    ...options.photoLimits,
  });

  const managementTokens = createManagementTokens({ store, now: clock, random });
  // The agent's relay tables are released (kept unheld or deleted) before its rows go, then its photo files.
  const deleteAgent = async (userId: string, agentId: string, opts: { keepTables?: boolean } = {}) => {
    if ((await agents.get(userId, agentId)).shared) throw sharedAgentRefusal('delete it');
    await tables.releaseAgent(userId, agentId, opts.keepTables === true);
    await agents.delete(userId, agentId);
    await photos.sweep();
  };
  const management = createAgentManagement({
    store,
    accounts,
    agents,
    tokens: managementTokens,
    deleteAgent,
  });

  const shares = wireShares(w, push);

  return {
    store,
    notifier,
    limits,
    clock,
    random,
    urls,
    accounts,
    pairing,
    agents,
    threads,
    threadOps,
    deadlines,
    receipts,
    push,
    createPushSender: (transport, senderOptions = {}) => pushSender(w, senders, transport, senderOptions),
    notificationAnswers,
    connectionAuth,
    anyConnectionAuth,
    photos,
    photoLinks,
    hosts,
    hostAuth,
    hostTransport,
    statusWatch,
    tables,
    managementTokens,
    management,
    shares,
    async deleteAccount(principal, password) {
      await accounts.deleteAccount(principal, password);
      // Live streams check their sign-in on every event: this one ends them now, not at the keep-alive.
      notifier.publish({ type: 'agents', userId: principal.userId });
      await photos.sweep();
    },
    deleteAgent,
    connectAgent: (input) => connectAgent(w, agents, pairing, input),
    // Every retention rule of the core, one scheduler runs them (apps/server; ADR 0190).
    housekeepingJobs: [
      ...retentionJobs({
        store,
        sweepPhotoFiles: () => photos.sweep(),
        sweepUnheldTables: () => tables.sweep(),
        random,
        ...(options.messagesPerThread !== undefined ? { messagesPerThread: options.messagesPerThread } : {}),
      }),
      createRevokedGrantsJob(store),
    ],
    stopping,
  };
}
