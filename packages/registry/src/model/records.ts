// The stored records of doc1/doc2, as the rules see them (times are epoch milliseconds).
import type { AgentColor } from '@screen-service/theme';

/** Host kinds of doc2: `hostfw` for the first host framework; `http`, `mcp`, `hosted` reserved for hosts. */
export type ConnectorKind = 'hostfw' | 'http' | 'mcp' | 'hosted';
export const CONNECTOR_KINDS: readonly ConnectorKind[] = ['hostfw', 'http', 'mcp', 'hosted'];

// The colour names and their swatches live once, in @screen-service/theme (doc2 Agent `color`).
export { AGENT_COLORS, type AgentColor } from '@screen-service/theme';

export interface UserRecord {
  id: string;
  email: string;
  passwordHash: string;
  firstName: string | null;
  createdAt: number;
  suspendedAt: number | null;
}

/** One app sign-in: a refresh token (hash only) in a rotation family. */
export interface SessionRecord {
  id: string;
  userId: string;
  familyId: string;
  refreshHash: string;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
  revokedAt: number | null;
}

/** How a connection proves itself: a connector token from pairing, or OAuth tokens from an approval. */
export type ConnectorVia = 'pairing' | 'oauth';

export interface ConnectorRecord {
  id: string;
  userId: string;
  name: string;
  kind: ConnectorKind;
  /**
   * SHA-256 of the connector token. An OAuth connection has no connector token: its hash is of a random
   * secret that was never handed out, so no bearer can match it.
   */
  tokenHash: string;
  /** Absent means `pairing` (records written before OAuth existed). */
  via?: ConnectorVia;
  createdAt: number;
  lastSeenAt: number | null;
  revokedAt: number | null;
  suspendedAt: number | null;
}

/** One entry of a host's commands list (doc2 Commands entry), as `cleanCommands` leaves it. */
export interface CommandEntry {
  name: string;
  description: string;
  args?: string;
}

/** What a bridged agent's card says about it (name and skills), shown in the agent's settings (doc3). */
export interface AgentCardSummary {
  name: string;
  skills: { name: string; description?: string }[];
}

export interface AgentRecord {
  id: string;
  userId: string;
  name: string;
  handle: string;
  color: AgentColor;
  avatar: string | null;
  theme: Record<string, unknown>;
  pushMuted: boolean;
  kind: ConnectorKind;
  connectorId: string | null;
  remoteRef: string | null;
  isDefault: boolean;
  sort: number;
  commands: CommandEntry[] | null;
  commandsAt: number | null;
  /** The card summary a bridge reported (`card` host action); absent or null for other agents. */
  card?: AgentCardSummary | null;
  clientSafe: boolean;
  sandbox: unknown;
  clientSafeAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/** What a list of served agents needs of each (svc_threads, ADR 0291): names, colour and list order. */
export type AgentSummary = Pick<
  AgentRecord,
  'id' | 'userId' | 'name' | 'handle' | 'color' | 'isDefault' | 'sort' | 'createdAt'
>;

/**
 * A native agent's settings (doc3 "Native agents"): the service runs it on the operator's model. `template`
 * names the starter it was added from (null for a blank agent); `instructions` is its system prompt.
 */
export interface NativeAgentRecord {
  agentId: string;
  userId: string;
  template: string | null;
  instructions: string;
  createdAt: number;
  updatedAt: number;
}

export interface PairingCodeRecord {
  id: string;
  userId: string;
  agentId: string;
  codeHash: string;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
  connectorId: string | null;
}

export type MessageSender = 'agent' | 'person';
export type MessageKind = 'text' | 'screen' | 'tap';

/** One row of an agent's thread. `seq` orders the whole store; later rows have larger seq. */
export interface MessageRecord {
  seq: number;
  id: string;
  userId: string;
  agentId: string;
  sender: MessageSender;
  kind: MessageKind;
  body: string;
  meta: Record<string, unknown>;
  screenId: string | null;
  connectorId: string | null;
  createdAt: number;
  deliveredAt: number | null;
  handledAt: number | null;
}

/** A tappable component of a screen: its tap id and component name. */
export interface ScreenTap {
  id: string;
  preset: string;
}

export interface ScreenRecord {
  id: string;
  userId: string;
  agentId: string;
  messageId: string;
  messageSeq: number;
  lines: string;
  ops: unknown[];
  taps: ScreenTap[];
  createdAt: number;
}

export interface PhotoRecord {
  id: string;
  userId: string;
  agentId: string;
  messageId: string | null;
  file: string;
  contentType: string;
  bytes: number;
  /** Displayed size from the image's header at upload (null when it does not say, or for older rows). */
  width?: number | null;
  height?: number | null;
  /**
   * The upload's idempotency key (ADR 0287): unique per person, so a phone resending an upload whose answer
   * it never heard gets this photo back; null for uploads sent without one (and older rows).
   */
  idemKey?: string | null;
  createdAt: number;
}

/** The person's side of a thread: how far they have read and whether it is open on a phone. */
export interface ThreadStateRecord {
  agentId: string;
  userId: string;
  readSeq: number;
  open: boolean;
  openChangedAt: number | null;
  /** A host is working on a turn until this time (doc3 working row); null when idle. */
  workingUntil: number | null;
  /**
   * Changes whenever anything the thread's pages show changes (a message written, changed or removed, with
   * its photos): every such write moves it to a fresh value the rules drew (ADR 0216, 0241); equal values
   * mean equal pages. Null when the thread has no version yet: nothing may be reused then.
   */
  pageVersion: string | null;
}

export interface PushIntentRecord {
  id: string;
  userId: string;
  agentId: string;
  messageId: string;
  createdAt: number;
  sentAt: number | null;
}

/** One device's Web Push subscription (RFC 8030 endpoint plus the RFC 8291 keys the browser gave). */
export interface PushSubscriptionRecord {
  id: string;
  userId: string;
  /** The push service URL this device receives at; unique across the service. */
  endpoint: string;
  /** The browser's P-256 public key (base64url, uncompressed point). */
  p256dh: string;
  /** The browser's 16-byte auth secret (base64url). */
  auth: string;
  /** The app's id for the device (settings show it; presence uses the same id). */
  device: string | null;
  createdAt: number;
}

/**
 * What a queued push says: a buzz for a thread's new row, the silent list refresh of a revoked grant, or
 * `stale`: the quiet replacement of a device's notification whose screen was answered elsewhere (issue 39).
 */
export type PushKind = 'message' | 'revoked' | 'stale';

/** One push owed to one subscription: the durable outbox row (written with the message it announces). */
export interface PushDeliveryRecord {
  id: string;
  userId: string;
  agentId: string;
  subscriptionId: string;
  kind: PushKind;
  /** The row announced (`message` pushes); null for `revoked`. */
  messageId: string | null;
  createdAt: number;
  attempts: number;
  /** Not before this time (back-off, Retry-After, the collapse window). */
  nextAt: number;
}

/**
 * One notification a device was sent for a thread row (issue 39): what the device shows now, so a screen
 * answered elsewhere replaces it, and, for a screen answered with one tap, the hash of the single-use answer
 * token the notification carries with the values it may send.
 */
export interface PushNoticeRecord {
  id: string;
  userId: string;
  agentId: string;
  subscriptionId: string;
  messageId: string;
  /** The screen the row put up; null for a chat line. */
  screenId: string | null;
  /** SHA-256 (hex) of the answer token; null when the notification carries none. */
  tokenHash: string | null;
  /** The tap id the token answers. */
  tapId: string | null;
  /** The values the token may send (the notification's actions), JSON values. */
  choices: unknown[];
  createdAt: number;
  expiresAt: number;
  /** When the token was spent; null while unused. */
  usedAt: number | null;
  /** When the screen was answered (anywhere) or withdrawn: the token is refused from then on. */
  closedAt: number | null;
}

/** The person's attention settings for buzzes (issue 39, ADR 0258). */
export interface PushSettingsRecord {
  userId: string;
  /** Quiet hours, minutes after local midnight in the account's time zone; null: none. */
  quietStart: number | null;
  quietEnd: number | null;
  /** An ask the agent marks urgent buzzes during quiet hours. */
  allowUrgent: boolean;
  /** Buzzes that need no answer, per agent per hour (0: no limit); the rest are gathered into the next. */
  plainPerHour: number;
  updatedAt: number;
}

/** How a registered OAuth client authenticates at the token endpoint (RFC 7591 `token_endpoint_auth_method`). */
export type OAuthClientAuthMethod = 'none' | 'client_secret_post' | 'client_secret_basic';

/** A dynamically registered OAuth client (RFC 7591). Registration is anonymous: no user owns a client. */
export interface OAuthClientRecord {
  id: string;
  /** SHA-256 of the client secret; null for public clients. */
  secretHash: string | null;
  authMethod: OAuthClientAuthMethod;
  name: string;
  redirectUris: string[];
  /** The other registered metadata, echoed back (client_uri, logo_uri, software_id, ...). */
  metadata: Record<string, unknown>;
  createdAt: number;
}

export type OAuthRequestStatus = 'pending' | 'approved' | 'denied';

/**
 * One authorization request from `/authorize` to the token exchange: pending until the person decides,
 * then finished once the browser is sent back (with a code when approved), then redeemed once.
 */
export interface OAuthRequestRecord {
  id: string;
  clientId: string;
  redirectUri: string;
  state: string | null;
  codeChallenge: string;
  scope: string;
  resource: string;
  /** SHA-256 of the secret in the cookie of the browser that started the flow. */
  browserHash: string;
  createdAt: number;
  expiresAt: number;
  status: OAuthRequestStatus;
  userId: string | null;
  agentId: string | null;
  decidedAt: number | null;
  finishedAt: number | null;
  codeHash: string | null;
  codeExpiresAt: number | null;
  codeUsedAt: number | null;
  /** The connection the code was redeemed into. */
  connectorId: string | null;
}

export type OAuthTokenKind = 'access' | 'refresh';

/** An OAuth access (`svc_at_`) or refresh (`svc_rt_`) token of one connection; hash only. */
export interface OAuthTokenRecord {
  id: string;
  kind: OAuthTokenKind;
  tokenHash: string;
  connectorId: string;
  userId: string;
  clientId: string;
  createdAt: number;
  expiresAt: number;
  /** Refresh tokens: when it was traded (single use). */
  usedAt: number | null;
  revokedAt: number | null;
}

/** A management token of doc2 (`svc_mt_...`): only its hash is kept; scope is always `agents:manage`. */
export interface ManagementTokenRecord {
  id: string;
  userId: string;
  /** What the person called it (1 to 40 characters). */
  name: string;
  tokenHash: string;
  scope: 'agents:manage';
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

/** A share template (doc2 "Shared-agent resources"): read and written only by the owner's own tools. */
export interface ShareTemplateRecord {
  id: string;
  ownerId: string;
  /** Slug `^[a-z0-9][a-z0-9-]{0,39}$`, unique per owner. */
  name: string;
  title: string;
  sharedBy: string;
  createdAt: number;
  updatedAt: number;
  items: ShareTemplateItemRecord[];
}

/** One agent of a template, with the look and first message a claim copies into its grant. */
export interface ShareTemplateItemRecord {
  agentId: string;
  theme: Record<string, unknown>;
  firstMessage: string;
  sort: number;
}

/** An invite link (only the hash of its token is stored); claimable once, after the owner approved it. */
export interface ShareInviteRecord {
  id: string;
  ownerId: string;
  templateId: string;
  tokenHash: string;
  firstName: string | null;
  createdAt: number;
  approvedAt: number | null;
  claimedAt: number | null;
  claimedBy: string | null;
}

/** A grant: one person's use of one owner's agent, in a thread of their own (doc2 "Grant"). */
export interface GrantRecord {
  id: string;
  agentId: string;
  ownerId: string;
  userId: string;
  role: 'user';
  theme: Record<string, unknown>;
  firstMessage: string | null;
  template: string | null;
  inviteId: string | null;
  pushMuted: boolean;
  sort: number;
  sharedBy: string;
  grantedAt: number;
  revokedAt: number | null;
}
