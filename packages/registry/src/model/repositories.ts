// Repository interfaces: the only way rules touch storage. They store: reads, writes and atomic claims
// ("mark used if still unused"); every decision is the rules', made inside `Store.transaction` (ADR 0241).
// Each method is one atomic unit on its own (one statement or one transaction per call).
import type { TableStore } from '@screen-service/tables-engine';
import type { DeadlineRepository } from './deadline-repository.js';
import type { ReceiptRepository } from './receipt-repository.js';
import type {
  AgentCardSummary,
  AgentRecord,
  AgentSummary,
  CommandEntry,
  ConnectorKind,
  ConnectorRecord,
  GrantRecord,
  ManagementTokenRecord,
  NativeAgentRecord,
  OAuthClientRecord,
  OAuthRequestRecord,
  OAuthTokenRecord,
  PairingCodeRecord,
  SessionRecord,
  ShareInviteRecord,
  ShareTemplateRecord,
  UserRecord,
} from './records.js';
import type { AnswerTaskRepository } from './task-repository.js';
import type {
  PageVersion,
  PhotoRepository,
  PushRepository,
  ThreadRepository,
} from './thread-repositories.js';

/** How a read inside a transaction holds what it read (ADR 0241). */
export interface ReadOptions {
  /**
   * Lock the row until the transaction ends (PostgreSQL `SELECT ... FOR UPDATE`), so a decision made from
   * it still holds when its write lands: another transaction that locks or changes the row waits for this
   * one. On SQLite (one writer: transactions run one after another) and outside a transaction it reads plainly.
   */
  forUpdate?: boolean;
}

export interface UserRepository {
  /** Inserts; throws ServiceError EMAIL_TAKEN when the (lower-cased) email exists. */
  create(user: UserRecord): Promise<UserRecord>;
  /** With `forUpdate`, the user's row is locked: rules that decide per account take it first (ADR 0241). */
  findById(id: string, options?: ReadOptions): Promise<UserRecord | null>;
  findByEmail(email: string): Promise<UserRecord | null>;
  /** Deletes the user and, by cascade, every row they own. */
  delete(id: string): Promise<boolean>;
  /** The account's time zone (ADR 0253); null when there is no such account. */
  getTimeZone(id: string): Promise<AccountTimeZone | null>;
  /**
   * Keeps a time zone on the account (ADR 0253). `report` (the app's device zone) changes it only while the
   * person has not pinned one; `pin` (the person's choice in settings) sets and pins it; `follow` sets it
   * and unpins (back to following the devices). False when nothing changed hands: no such account, or a
   * report while the zone is pinned.
   */
  setTimeZone(id: string, zone: string, how: TimeZoneChange): Promise<boolean>;
}

/** How {@link UserRepository.setTimeZone} changes the account's zone. */
export type TimeZoneChange = 'report' | 'pin' | 'follow';

/** The zone `today` and `now` resolve in for the person; `zone` null: not known yet (UTC is used). */
export interface AccountTimeZone {
  zone: string | null;
  /** The person chose it in settings: the devices' reports leave it alone. */
  pinned: boolean;
}

export interface SessionRepository {
  create(session: SessionRecord): Promise<SessionRecord>;
  findByRefreshHash(hash: string): Promise<SessionRecord | null>;
  /** Marks a refresh token used and inserts its successor, only if it was unused and live; else false. */
  rotate(usedId: string, next: SessionRecord, at: number): Promise<boolean>;
  /** Revokes every session of a rotation family (sign out, or reuse of an old refresh token). */
  revokeFamily(familyId: string, at: number): Promise<void>;
  /** Revokes every session of the user, on every device (the account page's "Sign out everywhere"). */
  revokeUser(userId: string, at: number): Promise<void>;
  /** True while the family has a session that is neither revoked nor expired (sign-out ends it at once). */
  familyLive(familyId: string, at: number): Promise<boolean>;
}

export interface NewAgent {
  id: string;
  userId: string;
  name: string;
  handle: string;
  color: AgentRecord['color'];
  kind: ConnectorKind;
  avatar?: string | null;
  theme?: Record<string, unknown>;
  connectorId?: string | null;
  remoteRef?: string | null;
  /** Whether it is the user's default (one per user: clear the old one first). */
  isDefault: boolean;
  /** Its place in the user's order. */
  sort: number;
  createdAt: number;
}

export interface AgentPatch {
  name?: string;
  handle?: string;
  color?: AgentRecord['color'];
  avatar?: string | null;
  theme?: Record<string, unknown>;
  pushMuted?: boolean;
  sort?: number;
}

export interface AgentRepository {
  /**
   * Inserts the agent as given. Throws HANDLE_TAKEN (the user has that handle), PROFILE_ALREADY_ADDED (the
   * connection has that remote_ref). Its default flag and place are the rules' (`addAgent`, ADR 0241).
   */
  create(agent: NewAgent): Promise<AgentRecord>;
  /** With `forUpdate`, the agent's row is locked (a decision on its client-safe verdict, its binding). */
  get(id: string, options?: ReadOptions): Promise<AgentRecord | null>;
  /** The user's agents by `sort`, then creation. */
  listByUser(userId: string): Promise<AgentRecord[]>;
  /** Agents a connection serves (its own, and those bound to it as an extra connection), default first, then by `sort`. */
  listByConnector(connectorId: string): Promise<AgentRecord[]>;
  /**
   * `listByConnector` as summaries, each agent with how many of `userId`'s person rows in its thread are
   * unhandled (`ThreadRepository.countUnhandled`), in one read (svc_threads, ADRs 0289 and 0291).
   */
  listByConnectorWithUnhandled(
    connectorId: string,
    userId: string,
  ): Promise<{ agent: AgentSummary; unhandled: number }[]>;
  findByHandle(userId: string, handle: string): Promise<AgentRecord | null>;
  findByRemoteRef(connectorId: string, remoteRef: string): Promise<AgentRecord | null>;
  /** Applies a patch; throws HANDLE_TAKEN when the handle is used by another agent of the user. */
  update(id: string, patch: AgentPatch, at: number): Promise<AgentRecord | null>;
  /**
   * Sets or clears the agent's default flag. At most one agent of a user is the default (a unique index):
   * clear the old one before setting the new.
   */
  markDefault(id: string, isDefault: boolean, at: number): Promise<void>;
  /** Sets `sort` of each of the user's agents in `ids` to its position in the list. */
  setOrder(userId: string, ids: string[], at: number): Promise<void>;
  /** Deletes the agent (its thread, codes and settings go by cascade); false when there was none. */
  delete(id: string): Promise<boolean>;
  /** Stores a host's cleaned commands list (null = no registry) and `commands_at`; false when no such agent. */
  setCommands(id: string, commands: CommandEntry[] | null, at: number): Promise<boolean>;
  /**
   * Makes `connectorId` the agent's primary connection, as profile `remoteRef` of host kind `kind`. Throws
   * PROFILE_ALREADY_ADDED when another agent of that connection is that profile (a unique index).
   */
  bind(
    id: string,
    to: { connectorId: string; remoteRef: string; kind: ConnectorKind },
    at: number,
  ): Promise<void>;
  /** Lets `connectorId` serve the agent besides its primary connection (ADR 0091); once. */
  addConnection(id: string, connectorId: string, userId: string, at: number): Promise<void>;
  /** Stores a bridged agent's card summary (null clears); false when no such agent. */
  setCard(id: string, card: AgentCardSummary | null, at: number): Promise<boolean>;
  /** Stores the host's sandbox report and the service's own client-safe verdict on it (doc2 "Client-safe"). */
  setSandbox(id: string, sandbox: SandboxWrite): Promise<void>;
}

/** What a heartbeat writes per agent: the cleaned report (null = none sent) and the re-checked verdict. */
export interface SandboxWrite {
  sandbox: Record<string, unknown> | null;
  clientSafe: boolean;
  /** When the verdict was last computed from a report; null when no report was sent. */
  clientSafeAt: number | null;
}

/** A connector and what its liveness check reads of its account (`connectionState`). */
export interface ConnectorWithAccount {
  connector: ConnectorRecord;
  account: { suspendedAt: number | null } | null;
}

export interface ConnectorRepository {
  create(connector: ConnectorRecord): Promise<ConnectorRecord>;
  get(id: string): Promise<ConnectorRecord | null>;
  findByTokenHash(hash: string): Promise<ConnectorRecord | null>;
  /**
   * The connector a token hash names and its account's suspension, read in one statement: tool-call auth
   * runs it on every call instead of a connector read and a user read. `account` is null when the user row
   * is gone.
   */
  findByTokenHashWithAccount(hash: string): Promise<ConnectorWithAccount | null>;
  listByUser(userId: string): Promise<ConnectorRecord[]>;
  touch(id: string, at: number): Promise<void>;
  /** Unrevoked connectors whose last_seen_at is at or after `at` (the live-status watch starts from them). */
  listSeenSince(at: number): Promise<ConnectorRecord[]>;
  /** Sets revoked_at (once); every token of the connector stops at the next request. */
  revoke(id: string, at: number): Promise<boolean>;
  /** Deletes the connector; its agents keep their rows with connector_id set null. */
  delete(id: string): Promise<boolean>;
}

/** Pairing codes (hashes only) and the wrong-code records of the throttle. */
export interface PairingRepository {
  /** Inserts the code; false (nothing written) when an unused code already has the same hash. */
  insert(code: PairingCodeRecord): Promise<boolean>;
  /** Deletes the agent's unused codes; how many. */
  deleteUnusedOf(agentId: string): Promise<number>;
  /** Deletes one code; false when there was none. */
  delete(id: string): Promise<boolean>;
  /** The unused code with this hash (expired or not), or null. */
  findUnused(codeHash: string): Promise<PairingCodeRecord | null>;
  /**
   * Marks the code used at `at` (by `connectorId`, when it made one), only if it is still unused: an atomic
   * claim, so of two racing claims one wins. False when it was used (or gone) meanwhile.
   */
  claim(id: string, input: { at: number; connectorId: string | null }): Promise<boolean>;
  /** Records one wrong code from a client address and drops records older than `pruneBefore`. */
  recordFailure(clientAddr: string, at: number, pruneBefore: number): Promise<void>;
  countFailures(clientAddr: string, since: number): Promise<number>;
}

export interface OAuthDecision {
  status: 'approved' | 'denied';
  /** Who decided (null when the consent page itself cancelled). */
  userId: string | null;
  /** The agent the connection will talk as (approvals only). */
  agentId: string | null;
  at: number;
}

export interface OAuthRepository {
  createClient(client: OAuthClientRecord): Promise<OAuthClientRecord>;
  getClient(id: string): Promise<OAuthClientRecord | null>;
  /**
   * Rewrites a client's name, redirect URIs and metadata (a client ID metadata document fetched again and
   * changed, ADR 0264); false when no client has this id.
   */
  updateClient(
    id: string,
    fields: Pick<OAuthClientRecord, 'name' | 'redirectUris' | 'metadata'>,
  ): Promise<boolean>;
  createRequest(request: OAuthRequestRecord): Promise<OAuthRequestRecord>;
  /** With `forUpdate`, the request's row is locked (a code's redemption decides on it). */
  getRequest(id: string, options?: ReadOptions): Promise<OAuthRequestRecord | null>;
  /** The request whose authorization code has this hash (used or not). */
  findRequestByCodeHash(hash: string): Promise<OAuthRequestRecord | null>;
  /** Decides a request that is still pending and unexpired; null when it was not. */
  decide(id: string, decision: OAuthDecision): Promise<OAuthRequestRecord | null>;
  /**
   * Marks a decided request finished (the browser goes back to the client) and, for an approval, stores
   * the authorization code's hash and expiry. False when it was not decided or already finished.
   */
  finish(
    id: string,
    input: { at: number; codeHash: string | null; codeExpiresAt: number | null },
  ): Promise<boolean>;
  /**
   * Marks the request's authorization code used at `at` (redeemed into `connectorId`, or null when it was
   * used up for nothing), only if it is still unused: an atomic claim. False when it was used meanwhile.
   */
  useCode(id: string, at: number, connectorId: string | null): Promise<boolean>;
  /** Stores tokens of a connection (the first pair of a redeemed code). */
  addTokens(tokens: OAuthTokenRecord[]): Promise<void>;
  findToken(hash: string): Promise<OAuthTokenRecord | null>;
  /** Marks a refresh token used and stores its successors, only if it was unused, unrevoked and unexpired. */
  rotateRefresh(usedId: string, next: OAuthTokenRecord[], at: number): Promise<boolean>;
  revokeToken(id: string, at: number): Promise<void>;
  /** Ends a whole connection: the connector is revoked and every token of it with it. */
  revokeConnection(connectorId: string, at: number): Promise<void>;
  /** Deletes requests that expired and tokens that lapsed before `before`. */
  prune(before: number): Promise<void>;
}

/** A relay table's service-side record: when its holder last read it, and since when it is unheld. */
export interface RelayTableMeta {
  userId: string;
  /** The holding agent's id, or `unheld:<agent id>` for a table kept after its agent was removed. */
  holder: string;
  name: string;
  lastReadAt: number | null;
  unheldAt: number | null;
}

/** Where a relay table lives: its owner, holder and name (the engine's `TableRef` with a user id). */
export interface RelayTableKey {
  userId: string;
  holder: string;
  name: string;
}

/**
 * Relay tables (doc3 "Table holding"): the rows in the tables engine's store on the service database, plus
 * what the service keeps around them. `tables` is the engine's asynchronous interface (one transaction per
 * `batch`, ADR 0221); `move` and `drop` change the table and its record in one transaction; the rest follow
 * the repositories' one-call-one-transaction contract.
 */
export interface RelayRepository {
  /** The engine's store: owner = user id, holder = agent id (or `unheld:<agent id>`). */
  readonly tables: TableStore;
  /** Every record of the user's relay tables. */
  listMeta(userId: string): Promise<RelayTableMeta[]>;
  /** Records that `holder` read these tables at `at`. */
  markRead(userId: string, holder: string, names: string[], at: number): Promise<void>;
  /**
   * Moves a table (rows and record) to another holder and name in one transaction; `unheldAt` is the new
   * record's value (null when an agent holds it). False when the table is gone or the name is taken.
   */
  move(from: RelayTableKey, to: { holder: string; name: string }, unheldAt: number | null): Promise<boolean>;
  /** Drops the table, its rows and its record; false when it did not exist. */
  drop(key: RelayTableKey): Promise<boolean>;
  /** Unheld tables whose wait started before `before` (every user). */
  listUnheldBefore(before: number): Promise<RelayTableKey[]>;
  /** Reads in a row through the reply path for an agent (0 when none). */
  readsInRow(agentId: string): Promise<number>;
  setReadsInRow(agentId: string, userId: string, n: number): Promise<void>;
  /** Appends one `<name>(<n> rows: <col>, ...)` for the agent's next turn (after a hand-over). */
  addHandover(agentId: string, userId: string, part: string): Promise<void>;
  /** Returns and clears the parts waiting for the agent's next turn, space-joined ('' when none). */
  takeHandover(agentId: string): Promise<string>;
}

export interface ManagementTokenRepository {
  create(token: ManagementTokenRecord): Promise<ManagementTokenRecord>;
  findByHash(hash: string): Promise<ManagementTokenRecord | null>;
  /** The user's tokens, newest first (revoked ones included). */
  listByUser(userId: string): Promise<ManagementTokenRecord[]>;
  /** Records a use (`last_used_at`). */
  touch(id: string, at: number): Promise<void>;
  /** Sets revoked_at once, only for the user's own token; false when there was no such live token. */
  revoke(userId: string, id: string, at: number): Promise<boolean>;
}

/** Native agents' settings, one row per agent the service runs itself (cascades from the agent). */
export interface NativeAgentRepository {
  /** Inserts or replaces the agent's row. */
  save(record: NativeAgentRecord): Promise<NativeAgentRecord>;
  get(agentId: string): Promise<NativeAgentRecord | null>;
  /** Sets the instructions; null when the agent has no row. */
  setInstructions(agentId: string, instructions: string, at: number): Promise<NativeAgentRecord | null>;
  /** Native agents whose thread holds person rows not yet handled (the runtime's start-up scan). */
  listWithPending(): Promise<{ agentId: string; userId: string }[]>;
}

/** A grant to insert (live: no `revokedAt`). */
export type NewGrant = Omit<GrantRecord, 'revokedAt'>;

/**
 * Shared agents (doc2 "Shared-agent resources"): templates, invites and grants as stored. Which agent may be
 * shared (client-safe, the owner's) is the core's rule, checked in the write's transaction (ADR 0241).
 */
export interface ShareRepository {
  /** Inserts or replaces the owner's template `name` with exactly these items, in one write. */
  saveTemplate(template: Omit<ShareTemplateRecord, 'createdAt'>): Promise<ShareTemplateRecord>;
  getTemplate(ownerId: string, name: string): Promise<ShareTemplateRecord | null>;
  getTemplateById(id: string): Promise<ShareTemplateRecord | null>;
  listTemplates(ownerId: string): Promise<ShareTemplateRecord[]>;
  deleteTemplate(ownerId: string, name: string): Promise<boolean>;
  createInvite(invite: ShareInviteRecord): Promise<ShareInviteRecord>;
  findInviteByHash(hash: string): Promise<ShareInviteRecord | null>;
  /** Approves the owner's unapproved invite; false when there is none. */
  approveInvite(ownerId: string, id: string, at: number): Promise<boolean>;
  /** Marks an approved, unclaimed invite claimed by `userId`; false when it was not (any more). */
  claimInvite(id: string, userId: string, at: number): Promise<boolean>;
  /** Inserts a live grant; throws CONFLICT when (agent, user) already has one (a unique index). */
  createGrant(grant: NewGrant): Promise<GrantRecord>;
  /** The live grant of (agent, user), or null. */
  liveGrant(agentId: string, userId: string): Promise<GrantRecord | null>;
  /** The newest grant of (agent, user), live or revoked-but-kept, or null. */
  latestGrant(agentId: string, userId: string): Promise<GrantRecord | null>;
  /** The user's live grants (what they hold), by sort then time. */
  listHeld(userId: string): Promise<GrantRecord[]>;
  /** Grants the owner gave (live and revoked-but-kept), newest first. */
  listGiven(ownerId: string): Promise<GrantRecord[]>;
  /** Live grants of these agents (what a host serves besides the owner's threads). */
  liveForAgents(agentIds: string[]): Promise<GrantRecord[]>;
  /** Changes the holder's own fields of a live grant; null when there is none. */
  updateHeld(id: string, patch: { pushMuted?: boolean; sort?: number }): Promise<GrantRecord | null>;
  /** Revokes the live grant of (agent, user) given by `ownerId`; the revoked row, or null when none was live. */
  revoke(ownerId: string, agentId: string, userId: string, at: number): Promise<GrantRecord | null>;
  /** Deletes the grants revoked before `before` and returns them (their threads are the rules' to clear). */
  deleteRevokedBefore(before: number): Promise<GrantRecord[]>;
  /** Sets the user's first name when they have none yet (from a claimed invite). */
  setFirstName(userId: string, firstName: string): Promise<void>;
}

/**
 * The deletes housekeeping runs (ADR 0190). Each call is one statement or one transaction and returns how
 * many rows it removed, so several instances may run them at once: a row is removed by whoever gets it first.
 */
export interface HousekeepingRepository {
  /**
   * Claims the job `name` for `holder` until `until` when nobody else holds it at `at`; false when another
   * holder's claim is still running. Keeps several instances from doing the same sweep in the same period.
   */
  claim(name: string, holder: string, at: number, until: number): Promise<boolean>;
  /**
   * Thread rows written before `before` (their screens, photos and push rows go with them); each thread
   * that lost rows moves to `version`.
   */
  deleteMessagesBefore(before: number, version: PageVersion): Promise<number>;
  /** Rows beyond the newest `keep` of each thread; each thread that lost rows moves to `version`. */
  trimThreads(keep: number, version: PageVersion): Promise<number>;
  /** Pairing codes that expired before `at` (used or not) and wrong-code records older than `attemptsBefore`. */
  deleteExpiredPairing(at: number, attemptsBefore: number): Promise<number>;
  /**
   * Lapsed OAuth state at `at`: requests past their expiry whose code (if any) expired too, and access and
   * refresh tokens (used ones included) past their expiry; app sessions past their expiry.
   */
  deleteLapsedSignIns(at: number): Promise<number>;
  /** Photos stored before `before` and never attached to a message (their files are queued for removal). */
  deleteUnattachedPhotos(before: number): Promise<number>;
}

/**
 * The repositories a transaction body gets (`Store.transaction`): every repository but the relay's, whose
 * table batches are transactions of their own (ADR 0221).
 */
export interface Repositories {
  users: UserRepository;
  sessions: SessionRepository;
  agents: AgentRepository;
  connectors: ConnectorRepository;
  pairing: PairingRepository;
  threads: ThreadRepository;
  photos: PhotoRepository;
  oauth: OAuthRepository;
  managementTokens: ManagementTokenRepository;
  push: PushRepository;
  nativeAgents: NativeAgentRepository;
  shares: ShareRepository;
  housekeeping: HousekeepingRepository;
  /** Screens' deadlines (issue 40, ADR 0260). */
  deadlines: DeadlineRepository;
  /** Signed receipts of answers and their keys (issue 40, ADR 0261). */
  receipts: ReceiptRepository;
  /** Task-augmented svc_answers (MCP Tasks extension, issue 41, ADR 0265). */
  tasks: AnswerTaskRepository;
}

/** Every repository of the service, backed by one database, and transactions over them. */
export interface Store extends Repositories {
  relay: RelayRepository;
  /**
   * Runs `fn` in one transaction: `tx` offers the same repositories, each call of them inside this
   * transaction. It commits when `fn` resolves (with its value) and rolls back when `fn` throws (with its
   * error). A rule that reads, decides and writes puts all three in one body (ADR 0241).
   *
   * A body awaits only its `tx`: no call of the store itself, no transaction inside it, no timer, no
   * network. On SQLite a transaction shares the connection and the group commit with other requests'
   * writes (ADR 0205); a body that breaks the rule is refused with `StoreTransactionError` rather than left
   * waiting. A body may run more than once (on SQLite, when another body of the same commit fails, each is
   * run again alone), so its only effects are through `tx` and its value: events and I/O come after.
   *
   * @example
   * ```ts
   * const outcome = await store.transaction(async (tx) => {
   *   const req = await tx.oauth.getRequest(id, { forUpdate: true });
   *   if (!req || req.codeUsedAt !== null) return 'code_used';
   *   await tx.oauth.useCode(id, at, connectorId);
   *   return 'ok';
   * });
   * ```
   */
  transaction<T>(fn: (tx: Repositories) => Promise<T>): Promise<T>;
}
