// The shapes of shared agents' use cases (doc2 "Shared-agent resources", "Grant"): what callers send and read.

import type { PushService } from '@screen-service/push';
import type { ShareWhy } from '@screen-service/registry/hosts';
import type { Clock, Notifier, Random } from '@screen-service/registry/kernel';
import type { AgentRecord, Store } from '@screen-service/registry/model';
import type { ScreenLinesPort } from '@screen-service/screen-rules';

export interface TemplateItemInput {
  /** The owner's agent: handle or id. */
  agent: unknown;
  theme?: unknown;
  first_message: unknown;
  sort?: unknown;
}

export interface TemplateInput {
  name: unknown;
  title: unknown;
  shared_by?: unknown;
  items: unknown;
}

export interface TemplateView {
  name: string;
  title: string;
  shared_by: string;
  items: {
    agent: { id: string; handle: string; name: string };
    theme: Record<string, unknown>;
    first_message: string;
    sort: number;
  }[];
  updated_at: string;
}

/** An invite link works this long after it was made (issue 46); shown as `expires_at`. */
export const INVITE_TTL_MS = 7 * 24 * 3600_000;

export interface InviteCreated {
  invite_id: string;
  /** When the link stops working ({@link INVITE_TTL_MS} after it was made). */
  expires_at: string;
  /** Shown once; only its hash is stored. */
  token: string;
  link: string;
  template: string;
  approved: boolean;
}

export interface InvitePreview {
  title: string;
  shared_by: string;
  first_name: string | null;
  agents: { name: string; color: AgentRecord['color'] }[];
  /** False once claimed, or while the owner has not approved it. */
  claimable: boolean;
  /** When the link stops working. */
  expires_at: string;
}

export interface ClaimResult {
  granted: { agent_id: string; name: string }[];
  /** Items whose agent was not client-safe at the claim (the sign-in does not fail because of them). */
  skipped: { agent_id: string; name: string; share_why: ShareWhy[] }[];
}

/** A grant as its owner reads it: who holds it, never their thread. */
export interface GivenGrantView {
  id: string;
  agent: { id: string; name: string; handle: string };
  user: { id: string; email: string; first_name: string | null };
  shared_by: string;
  template: string | null;
  granted_at: string;
  revoked_at: string | null;
}

/** What a revoke answers: the grant, its holder without their email. */
export type RevokedGrantView = Omit<GivenGrantView, 'user'> & {
  user: { id: string; first_name: string | null };
};

export interface GrantInput {
  agent: unknown;
  /** The person: email or user id. */
  user: unknown;
  /** Copy the agent's current look into the grant (default: `{}`, the agent's own). */
  look?: boolean;
  /** Write a hello as the thread's first message. */
  hello?: boolean;
  by?: unknown;
}

/** The invite plan `plan` prints and `send` reads back (keys have no spaces, so a flattened tap line parses). */
export interface InvitePlan {
  template: string;
  title: string;
  shared_by: string;
  first_name: string;
  /** Comma-separated handles of the agents to share (the owner's client-safe ones by default). */
  agents: string;
  /** `hello_<handle>`: the first message of each agent's thread. */
  [hello: `hello_${string}`]: string;
}

export interface Shares {
  /** The client-safe verdict of one of the owner's agents (`safe <agent>`). */
  safe(
    ownerId: string,
    agent: unknown,
  ): Promise<{
    agent: { id: string; handle: string; name: string };
    client_safe: boolean;
    share_why: ShareWhy[];
  }>;
  saveTemplate(ownerId: string, input: TemplateInput): Promise<TemplateView>;
  listTemplates(ownerId: string): Promise<TemplateView[]>;
  showTemplate(ownerId: string, name: unknown): Promise<TemplateView>;
  deleteTemplate(ownerId: string, name: unknown): Promise<{ deleted: boolean }>;
  createInvite(ownerId: string, input: { template: unknown; first_name?: unknown }): Promise<InviteCreated>;
  approveInvite(ownerId: string, inviteId: string): Promise<{ approved: true }>;
  previewInvite(token: unknown): Promise<InvitePreview>;
  /** Claims an approved invite for `userId`: one grant per item whose agent is client-safe now. */
  claim(userId: string, token: unknown): Promise<ClaimResult>;
  grant(ownerId: string, input: GrantInput): Promise<GivenGrantView>;
  /** The revoked grant, naming its holder by id and first name only (issue 46: not their email). */
  revoke(ownerId: string, input: { agent: unknown; user: unknown }): Promise<RevokedGrantView>;
  /** The grants the owner gave (live and revoked-but-kept). */
  given(ownerId: string): Promise<GivenGrantView[]>;
  plan(ownerId: string): Promise<InvitePlan>;
  /** Re-checks safety, saves the template, creates and approves the invite: the link. */
  send(ownerId: string, answers: unknown): Promise<InviteCreated>;
}

export interface SharesOptions {
  store: Store;
  notifier: Notifier;
  push: Pick<PushService, 'revoked'>;
  /** The invite link for a token (the app's claim page). */
  inviteLink(token: string): string;
  now?: Clock;
  random?: Random;
  screenLines?: ScreenLinesPort;
  onPushQueued?: () => void;
}
