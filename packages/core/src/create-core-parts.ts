// The parts createCore is wired from, one builder per context: tables, hosts, connection credentials, the
// push sender and `svc connect` (create-core.ts composes them).

import {
  createTables,
  createTableWork,
  TABLE_WORK_DEFAULTS,
  TABLES_CALLS_PER_MINUTE,
  type Tables,
} from '@screen-service/agent-tables';
import type { PhotoLinks } from '@screen-service/photos';
import { createPushDispatcher, type PushDispatcher } from '@screen-service/push';
import type { Receipts } from '@screen-service/receipts';
import { normalizeEmail } from '@screen-service/registry/accounts';
import type { PersonAgents } from '@screen-service/registry/agents';
import {
  createConnectionAuth,
  createHosts,
  HOST_ADDS_PER_MINUTE,
  type Pairing,
  resolveAccessToken,
} from '@screen-service/registry/hosts';
import {
  type Clock,
  type LimitStore,
  type Notifier,
  type Random,
  ServiceError,
} from '@screen-service/registry/kernel';
import type { Store } from '@screen-service/registry/model';
import type { ServiceUrls } from '@screen-service/registry/mounts';
import { defaultScreenLines, type ScreenLinesPort, tapsOf } from '@screen-service/screen-rules';
import type { ConnectedAgent, Core, CoreOptions } from './create-core.js';
import { createHostTransport } from './host-messages/host-transport.js';
import { createStatusWatch } from './host-messages/status-watch.js';
import { createDeadlineSweeper, type DeadlineSweeper } from './threads/deadline-sweeper.js';
import { createNotificationAnswers, type NotificationAnswers } from './threads/push-answers.js';
import { createThreadCore, type ThreadDeps } from './threads/thread-core.js';
import type { ThreadOps } from './threads/thread-ops.js';

/** What the builders below share: the options and the parts every context is made over. */
export interface Wiring {
  options: CoreOptions;
  store: Store;
  notifier: Notifier;
  clock: Clock;
  random: Random;
  urls: ServiceUrls;
  limits: LimitStore;
  stopping: AbortController;
  onPushQueued: () => void;
  linkPhotos: (photos: Parameters<PhotoLinks['sign']>[0]) => ReturnType<PhotoLinks['sign']>;
  screenLines: { screenLines?: ScreenLinesPort };
  /** Signs a receipt of every answer (ADR 0261). */
  receipts: Receipts;
}

/** A bucket of `n` calls a minute on the core's clock, all of them usable at once. */
const perMinute = (w: Wiring, name: string, n: number) =>
  w.limits.rateLimiter(name, { burst: n, perMinute: n, now: w.clock });

/** The deadline sweeper of the process (ADR 0260); writes wake it through `onDeadlineSet`. */
export function wireDeadlines(w: Wiring): DeadlineSweeper {
  const { store, notifier, clock, random, onPushQueued, screenLines, receipts } = w;
  const onError = w.options.onDeadlineError;
  return createDeadlineSweeper({
    store,
    notifier,
    now: clock,
    random,
    onPushQueued,
    receipts,
    ...screenLines,
    ...(onError ? { onError } : {}),
  });
}

/** The agent tables, their Delete / Keep cards written through a thread writer of their own. */
export function wireTables(w: Wiring): Tables {
  const { options, store, notifier, clock, random, onPushQueued, screenLines } = w;
  const parser = options.screenLines ?? defaultScreenLines;
  // The tables write their Delete / Keep cards through a thread writer of their own (it records no taps);
  // every other writer settles those cards when the person taps one.
  const cardWriter = createThreadCore({ store, notifier, now: clock, random, onPushQueued, ...screenLines });
  const tableWork = { ...TABLE_WORK_DEFAULTS, ...options.tableWork };
  return createTables({
    store,
    notifier,
    now: clock,
    limiter: perMinute(w, 'tables', TABLES_CALLS_PER_MINUTE),
    ...(options.tablesTimeZone ? { timeZone: options.tablesTimeZone } : {}),
    work: createTableWork({
      limiter: perMinute(w, 'table-rows', tableWork.rowsPerMinute),
      limits: tableWork,
    }),
    async appendCard(agent, lines, meta) {
      const id = cardWriter.newId('scr_');
      const parsed = parser.parse(lines, { screen: id });
      await cardWriter.appendAgentScreen(
        agent,
        { body: lines, meta, connectorId: null },
        { id, lines, ops: parsed.ops, taps: tapsOf(parsed.ops) },
      );
    },
  });
}

/** Hosts: their status watch, the host API's use cases, their credentials and the message transport. */
export function wireHosts(w: Wiring, threadOps: ThreadOps) {
  const { options, store, notifier, clock, random, urls, stopping, linkPhotos, screenLines } = w;
  const statusWatch = createStatusWatch({
    store,
    notifier,
    now: clock,
    ...(options.statusTickMs ? { tickMs: options.statusTickMs } : {}),
  });
  void statusWatch.start().catch(() => {});
  stopping.signal.addEventListener('abort', () => statusWatch.stop());
  const onSeen = (c: { id: string; userId: string }, at: number) => statusWatch.seen(c, at);
  const hosts = createHosts({
    store,
    notifier,
    now: clock,
    random,
    connectUrl: urls.connectUrl,
    onSeen,
    addLimiter: perMinute(w, 'host-add', HOST_ADDS_PER_MINUTE),
    ...(options.appBuilds ? { appBuilds: options.appBuilds } : {}),
  });
  const hostAuth = createConnectionAuth({ store, now: clock, onSeen });
  const hostTransport = createHostTransport({
    store,
    notifier,
    now: clock,
    random,
    photoLinks: linkPhotos,
    shutdown: stopping.signal,
    threadOps,
    served: hosts.served,
    ...screenLines,
  });
  return { statusWatch, onSeen, hosts, hostAuth, hostTransport };
}

/** The tool server's credentials (MCP connections, OAuth access tokens) and any connection's. */
export function wireConnectionAuth(
  w: Wiring,
  onSeen: (c: { id: string; userId: string }, at: number) => void,
) {
  const { options, store, clock } = w;
  const connectionAuth = createConnectionAuth({
    store,
    expectKind: 'mcp',
    now: clock,
    onSeen,
    ...(options.acceptAccessTokens === false
      ? {}
      : { resolveAccessToken: (token: string) => resolveAccessToken(store, token, clock()) }),
  });
  const anyConnectionAuth = createConnectionAuth({
    store,
    now: clock,
    ...(options.acceptAccessTokens === false
      ? {}
      : { resolveAccessToken: (token: string) => resolveAccessToken(store, token, clock()) }),
  });
  return { connectionAuth, anyConnectionAuth };
}

/** Answers from notifications (issue 39) over the same tap path as the app's, tables cards included. */
export function wireNotificationAnswers(
  w: Wiring,
  beforeTap: Pick<ThreadDeps, 'beforeTap' | 'screenTables'>,
): NotificationAnswers {
  const { store, notifier, clock, random, onPushQueued, screenLines } = w;
  const core = createThreadCore({
    ...beforeTap,
    store,
    notifier,
    now: clock,
    random,
    onPushQueued,
    ...screenLines,
  });
  return createNotificationAnswers({ store, core });
}

/** A push sender over the outbox that writes wake (ADR 0205); stopping it takes it out of the wake list. */
export function pushSender(
  w: Wiring,
  senders: Set<PushDispatcher>,
  transport: Parameters<Core['createPushSender']>[0],
  senderOptions: NonNullable<Parameters<Core['createPushSender']>[1]>,
): ReturnType<Core['createPushSender']> {
  const { store, urls, clock, random } = w;
  const sender = createPushDispatcher({
    ...senderOptions,
    store,
    transport,
    // The web app is served at the base URL (the API lives under urls.appUrl).
    appUrl: urls.baseUrl,
    answerUrl: `${urls.appUrl}/push/answer`,
    now: clock,
    random,
  });
  senders.add(sender);
  const stop = sender.stop;
  return {
    ...sender,
    async stop() {
      senders.delete(sender);
      await stop();
    },
  };
}

/** `svc connect`: an agent in the account of `email`, paired as an MCP connection named `hostName`. */
export async function connectAgent(
  w: Wiring,
  agents: PersonAgents,
  pairing: Pairing,
  input: { email: string; agent: string; hostName: string },
): Promise<ConnectedAgent> {
  const { store, urls } = w;
  const user = await store.users.findByEmail(normalizeEmail(input.email));
  if (!user) {
    throw new ServiceError(
      'NOT_FOUND',
      `No account for ${input.email}: create it first with \`svc user add --email ${input.email}\`.`,
      { field: 'email' },
    );
  }
  const { agent, pairing: minted } = await agents.create(user.id, { name: input.agent });
  const paired = await pairing.pair({
    code: minted!.code,
    remote_ref: agent.handle,
    kind: 'mcp',
    host_name: input.hostName,
    clientAddr: 'svc-cli',
  });
  return {
    mcp_url: urls.mcpUrl,
    connector_token: paired.connector_token!,
    agent: { id: paired.agent.id, name: paired.agent.name, handle: paired.agent.handle },
  };
}
