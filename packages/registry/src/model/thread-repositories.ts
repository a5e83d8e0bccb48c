// The repositories of what happens in a thread: its rows and screens, push subscriptions and the push
// outbox, photos. Storage only: the rules decide what to write (ADR 0241).
import type { AnswerStakes } from './deadline-repository.js';
import type { ReceiptBuilder } from './receipt-repository.js';
import type {
  ConnectorRecord,
  MessageRecord,
  PhotoRecord,
  PushDeliveryRecord,
  PushIntentRecord,
  PushNoticeRecord,
  PushSettingsRecord,
  PushSubscriptionRecord,
  ScreenRecord,
  ThreadStateRecord,
  UserRecord,
} from './records.js';

/** A thread is keyed by (agent, user): the owner's thread today, a grant holder's later. */
export interface ThreadKey {
  agentId: string;
  userId: string;
}

export interface NewMessage {
  id: string;
  userId: string;
  agentId: string;
  sender: MessageRecord['sender'];
  kind: MessageRecord['kind'];
  body: string;
  meta?: Record<string, unknown>;
  screenId?: string | null;
  connectorId?: string | null;
  createdAt: number;
  handledAt?: number | null;
  /**
   * A host's idempotency key (unique per connection), or a person's answer's key (unique per person among
   * person rows, ADR 0276): a second write with the same key is refused.
   */
  idemKey?: string | null;
  /**
   * Uploaded photos this message carries: bound to it in the same transaction as the row (a photo already
   * bound to another message is left as it is). The caller checks they are the sender's unsent photos.
   */
  photoIds?: readonly string[];
}

export interface NewScreen {
  id: string;
  lines: string;
  ops: unknown[];
  taps: ScreenRecord['taps'];
}

/**
 * An agent row written with its buzz in one write (`ThreadRepository.appendWithPush`, ADR 0289). The rules
 * decide the buzz (ADR 0241) for each state of the one fact only the store reads at the row's time: whether a
 * device holds the thread open (`PushRepository.isOpen` at `message.createdAt`). The store reads it and
 * queues what the rules said for the state it found.
 */
export interface AgentRowWrite {
  message: NewMessage;
  /** The screen the row puts up (as `appendScreen`), or null for a chat line (as `append`). */
  screen: NewScreen | null;
  version: PageVersion;
  /**
   * The buzz: when the state found is one the rules said buzzes (`ifOpen`, `ifClosed`), it is queued as
   * `PushRepository.enqueueMessage` queues it (intent `id`, due at the row's `createdAt`).
   */
  push: { id: string; ifOpen: boolean; ifClosed: boolean };
  /** Written only while connection `connectorId` serves the agent for `userId` (as `agents.listByConnector`
   * reads it), else nothing is: {@link AgentRowRefused} (ADR 0291). */
  servedBy?: { connectorId: string; userId: string };
}

/** A guarded agent row not written (ADR 0291): the connection no longer serves the agent (`servedBy`). */
export class AgentRowRefused extends Error {
  constructor() {
    super('agent row refused: the connection no longer serves the agent');
    this.name = 'AgentRowRefused';
  }
}

/**
 * The connection a claim or a read of the person's answers is made for (`ThreadRepository.claimAnswers`, ADR
 * 0298; `pendingForHost`, ADR 0301). The statement itself checks it: it claims or reads only while connector
 * `connectorId` exists, is not revoked and not suspended, and its account exists and is not suspended (what
 * `connectionState` of `@screen-service/registry/hosts` calls `live`), else it returns nothing and the store
 * throws {@link ClaimRefused}. A check before the statement cannot do this: the connection can be removed,
 * and the person write again, between the check and the statement.
 */
export interface ClaimGuard {
  connectorId: string;
}

/**
 * A guarded claim (ADR 0298) or guarded read (ADR 0301) of the person's answers that returned nothing because
 * its connection was not live when its statement ran. It carries what the statement read, so the rules judge
 * it with `connectionState(connector, account)`: `connector` is null when the connector row is gone, `account`
 * when its user row is. `act` says which statement was refused; both are answered alike.
 */
export class ClaimRefused extends Error {
  readonly connector: Pick<ConnectorRecord, 'revokedAt' | 'suspendedAt'> | null;
  readonly account: Pick<UserRecord, 'suspendedAt'> | null;
  readonly act: 'claim' | 'read';
  constructor(
    connector: Pick<ConnectorRecord, 'revokedAt' | 'suspendedAt'> | null,
    account: Pick<UserRecord, 'suspendedAt'> | null,
    act: 'claim' | 'read' = 'claim',
  ) {
    super(
      act === 'claim'
        ? 'answers not claimed: the claiming connection is not live'
        : 'answers not read: the reading connection is not live',
    );
    this.name = 'ClaimRefused';
    this.connector = connector;
    this.account = account;
    this.act = act;
  }
}

export interface ThreadPageQuery extends ThreadKey {
  /** Only rows with seq below this (older page); absent for the newest page. */
  beforeSeq?: number;
  limit: number;
}

/**
 * A thread page's version (ADR 0216, 0241): a whole number below 2^53 that the rules draw fresh (never one
 * seen before) for every write that changes what the thread's pages show. Each such write of the thread
 * repository takes one and sets it on the thread's state row in the same statement or transaction (a thread
 * with no state row has no version: nothing is reused for it); a write that creates the state row (a read
 * mark, the open flag, the working indicator) gives it its first version.
 */
export type PageVersion = number;

/**
 * A thread's rows and state. Every write that changes what a page shows (a row written, delivered, handled,
 * claimed, removed) takes a fresh {@link PageVersion} and moves the thread's version to it when it changed
 * anything; writes a page does not show (read mark, open, working) leave the version as it is.
 */
export interface ThreadRepository {
  /** Inserts the row (and binds its `photoIds`) and moves the thread to `version`, in one write. */
  append(message: NewMessage, version: PageVersion): Promise<MessageRecord>;
  /**
   * `append` or `appendScreen` and the row's buzz in one write (ADR 0289): the thread's open state is read
   * and the buzz queued as {@link AgentRowWrite} says, atomically with the row. `pushed` says whether it was.
   */
  appendWithPush(
    write: AgentRowWrite,
  ): Promise<{ message: MessageRecord; screen: ScreenRecord | null; pushed: boolean }>;
  /** Writes the screen's message row and the screen, and moves the thread to `version`, in one write. */
  appendScreen(
    message: NewMessage,
    screen: NewScreen,
    version: PageVersion,
  ): Promise<{ message: MessageRecord; screen: ScreenRecord }>;
  /**
   * Inserts an answer row (as {@link append}) and its receipt in one write (ADR 0261): `receiptOf` builds
   * the receipt from the written row and the thread's newest receipt's link (its seq and hash); it runs synchronously inside the
   * write and has no effect of its own. A receipt that takes a seq already taken fails the whole write. A store
   * that keeps batches (`receipts.keepsBatches`) writes format 2 with `receiptOf.leaf` and signs a flush's
   * leaves together with `receiptOf.signBatch` (ADR 0294).
   *
   * With `settles` (ADR 0299), the write first reads the stakes of the row's screen as
   * `deadlines.stakes` reads them, in the same transaction, and when `settles(stakes)` says the answer settles
   * something (a deadline, a withdraw, a notification's token) writes nothing and answers null: the rules
   * then write it in a transaction that settles them. Without `settles` it never answers null.
   */
  appendSigned(
    message: NewMessage,
    version: PageVersion,
    receiptOf: ReceiptBuilder,
    settles?: (stakes: AnswerStakes) => boolean,
  ): Promise<MessageRecord | null>;
  getScreen(id: string): Promise<ScreenRecord | null>;
  /** Screens by id (missing ids are left out). */
  listScreens(ids: string[]): Promise<ScreenRecord[]>;
  getMessage(id: string): Promise<MessageRecord | null>;
  /**
   * Atomically marks up to `limit` unhandled person rows (oldest first, seq above `afterSeq`) handled
   * and returns them. Two concurrent callers never receive the same row. With `guard`, the same statement
   * claims only while the guard's connection is live, else nothing is claimed and {@link ClaimRefused} is
   * thrown (ADR 0298); a store must honour it in the claim itself, not in a read before it.
   */
  claimAnswers(
    query: ThreadKey & {
      afterSeq: number;
      limit: number;
      at: number;
      version: PageVersion;
      guard?: ClaimGuard;
    },
  ): Promise<MessageRecord[]>;
  countUnhandled(key: ThreadKey): Promise<number>;
  /** Newest first. */
  page(query: ThreadPageQuery): Promise<MessageRecord[]>;
  /** Agent rows after the person's read mark, per agent of the user. */
  unreadByAgent(userId: string): Promise<Map<string, number>>;
  /** The newest row per agent of the user (for list previews and derived recency). */
  lastByAgent(userId: string): Promise<Map<string, MessageRecord>>;
  getState(key: ThreadKey): Promise<ThreadStateRecord>;
  /** Moves the read mark forward (never back); `version` is a new state row's first version. */
  markRead(key: ThreadKey, seq: number, version: PageVersion): Promise<void>;
  /** Marks the agent rows up to `upToSeq` delivered (once). */
  markDelivered(key: ThreadKey, upToSeq: number, at: number, version: PageVersion): Promise<void>;
  /** `version` is a new state row's first version. */
  setOpen(key: ThreadKey, open: boolean, at: number, version: PageVersion): Promise<void>;
  /**
   * Deletes every row of the thread: its messages (their screens and push rows go with them), photos, state
   * and presence, and its queued pushes. A thread begun again after this has no page version until its
   * state row is made again.
   */
  deleteThread(key: ThreadKey): Promise<void>;
  /** The row a connection wrote with this idempotency key, or null. */
  findByIdemKey(connectorId: string, idemKey: string): Promise<MessageRecord | null>;
  /** The person row this person wrote with this idempotency key (an answer queued on a phone), or null. */
  findPersonAnswer(userId: string, idemKey: string): Promise<MessageRecord | null>;
  /**
   * Unhandled person rows of one user in any of `agentIds`' threads with seq above `afterSeq`, oldest first
   * (what a host's message stream owes it). With `guard`, the same statement reads only while the guard's
   * connection is live, else nothing is returned and {@link ClaimRefused} (`act: 'read'`) is thrown (ADR
   * 0301); a store must honour it in the read itself, not in a read before it.
   */
  pendingForHost(query: {
    userId: string;
    agentIds: string[];
    afterSeq: number;
    limit: number;
    guard?: ClaimGuard;
  }): Promise<MessageRecord[]>;
  /** Marks these person rows of the thread delivered (once); returns the rows that are in the thread. */
  markRowsDelivered(
    key: ThreadKey,
    ids: string[],
    at: number,
    version: PageVersion,
  ): Promise<MessageRecord[]>;
  /** Marks these person rows of the thread handled (once); returns how many changed. */
  markRowsHandled(key: ThreadKey, ids: string[], at: number, version: PageVersion): Promise<number>;
  /** Sets (or clears with null) the thread's working indicator; `version` is a new state row's first. */
  setWorking(key: ThreadKey, until: number | null, version: PageVersion): Promise<void>;
  listPushIntents(userId: string): Promise<PushIntentRecord[]>;
}

/** Web Push subscriptions, the push outbox and per-device thread presence. */
export interface PushRepository {
  /** Inserts, or updates the keys and device of the user's own row with that endpoint; null when the endpoint is another user's. */
  saveSubscription(sub: PushSubscriptionRecord): Promise<PushSubscriptionRecord | null>;
  listSubscriptions(userId: string): Promise<PushSubscriptionRecord[]>;
  /** Removes the user's subscription with this endpoint (its queued rows go with it); false when none. */
  removeSubscription(userId: string, endpoint: string): Promise<boolean>;
  /** Removes a subscription the push service answered 404/410 for, and its queued rows. */
  removeSubscriptionById(id: string): Promise<void>;
  /** Queues one `revoked` row per subscription of the user (ids `${id}.${n}`); returns how many. */
  enqueueRevoked(input: { id: string; userId: string; agentId: string; at: number }): Promise<number>;
  /**
   * Queues the buzz of a message in one write: its push intent (id `id`) and one `message` row per
   * subscription of the user (ids `${id}.${n}`, due at `at`); returns how many rows. Whether a row buzzes
   * is the rules' decision: they call this in the message's own transaction (ADR 0241).
   */
  enqueueMessage(input: {
    id: string;
    userId: string;
    agentId: string;
    messageId: string;
    at: number;
  }): Promise<number>;
  /** Queued rows due at `at`, oldest first, with their subscription. */
  due(
    at: number,
    limit: number,
  ): Promise<{ row: PushDeliveryRecord; subscription: PushSubscriptionRecord }[]>;
  /** The earliest `nextAt` of any queued row, or null when the outbox is empty. */
  nextDueAt(): Promise<number | null>;
  /** Deletes rows that were sent, collapsed into another push, or given up. */
  settle(ids: string[]): Promise<void>;
  /** Moves rows to a later time; `attempt` adds one to their attempt count. */
  postpone(ids: string[], nextAt: number, attempt: boolean): Promise<void>;
  /** Marks the push intent of these messages sent (the audit row of the decision). */
  markIntentsSent(messageIds: string[], at: number): Promise<void>;
  /** Marks a thread open (until `until`) or closed (`until` null) on one device. */
  setPresence(key: ThreadKey, device: string, until: number | null): Promise<void>;
  /** True while any device holds the thread open at `at`. */
  isOpen(key: ThreadKey, at: number): Promise<boolean>;
  /**
   * Records a notification sent to one device (issue 39), and drops that device's notices of the thread
   * that expired before `notice.createdAt` (so the table stays as small as the live notifications).
   */
  saveNotice(notice: PushNoticeRecord): Promise<void>;
  /** The notice whose answer token hashes to `tokenHash`, or null. */
  findNotice(tokenHash: string): Promise<PushNoticeRecord | null>;
  /**
   * Spends a notice's token: true when it was unused, not closed and not expired at `at` (it is then used
   * and closed); false otherwise. Two concurrent callers never both get true.
   */
  useNotice(id: string, at: number): Promise<boolean>;
  /**
   * Closes the open notices of a screen (it was answered or withdrawn) and returns those that were still
   * the newest notification of their device for the thread: the ones a device still shows.
   */
  closeNotices(screenId: string, at: number): Promise<PushNoticeRecord[]>;
  /** The person's attention settings, or null for the defaults. */
  getSettings(userId: string): Promise<PushSettingsRecord | null>;
  /** Writes the person's attention settings (whole). */
  saveSettings(settings: PushSettingsRecord): Promise<void>;
  /** Marks the person in front of the app on one device until `until`, or not (`until` null). */
  setActive(userId: string, device: string, until: number | null): Promise<void>;
  /** True while any device of the person shows the app (or holds any thread open) at `at`. */
  isActive(userId: string, at: number): Promise<boolean>;
  /** Queues one `stale` row per given subscription (ids `${id}.${n}`, due at `at`); returns how many. */
  enqueueStale(input: {
    id: string;
    userId: string;
    agentId: string;
    /** The row that made the notification stale (the answering tap). */
    messageId: string;
    subscriptionIds: string[];
    at: number;
  }): Promise<number>;
}

export interface PhotoRepository {
  /** Records a photo; a second row with a user's `idemKey` is refused (`CONFLICT`, field `idempotency-key`). */
  create(photo: PhotoRecord): Promise<PhotoRecord>;
  get(id: string): Promise<PhotoRecord | null>;
  /** The user's photo uploaded with this idempotency key (ADR 0287), or null. */
  findByKey(userId: string, idemKey: string): Promise<PhotoRecord | null>;
  listByMessage(messageIds: string[]): Promise<PhotoRecord[]>;
  /** Every photo of a user (to remove the files when the account is deleted). */
  listByUser(userId: string): Promise<PhotoRecord[]>;
  /** The bytes all of a user's photos hold together (the upload quota). */
  bytesOf(userId: string): Promise<number>;
  /** Files whose photo rows are gone (queued by the same transaction), fewest attempts first. */
  pendingRemovals(limit: number): Promise<string[]>;
  /** Settles queued removals: `removed` leave the queue, `failed` count one more attempt. */
  settleRemovals(removed: string[], failed: string[]): Promise<void>;
}
