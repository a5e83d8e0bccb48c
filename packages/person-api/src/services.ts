// The use cases the person's API calls. Handlers reach the rules only through these (never a repository).

import type { Tables } from '@screen-service/agent-tables';
import type { Core } from '@screen-service/core';
import type { Shares } from '@screen-service/core/sharing';
import type { NotificationAnswers, PersonThreads } from '@screen-service/core/threads';
import type { Photos } from '@screen-service/photos';
import type { PushService } from '@screen-service/push';
import type { Accounts, AppPrincipal } from '@screen-service/registry/accounts';
import type { AgentView, PersonAgents } from '@screen-service/registry/agents';
import type { Notifier } from '@screen-service/registry/kernel';
import type { OAuthDecisionInput, OAuthRequestView } from './schemas.js';

/** A pending OAuth sign-in as the person's app shows it, and the person's decision on it. */
export interface PersonOAuth {
  personView(userId: string, requestId: string): Promise<OAuthRequestView>;
  decide(userId: string, requestId: string, decision: OAuthDecisionInput): Promise<OAuthRequestView>;
}

/** A starter agent as the add card shows it. */
export interface NativeStarterView {
  id: string;
  name: string;
  description: string;
  color: AgentView['color'];
  theme: Record<string, unknown>;
  tables: string[];
}

/** A native agent's instructions. */
export interface NativeInstructionsView {
  agent_id: string;
  template: string | null;
  instructions: string;
  updated_at: string;
}

/** Native agents' use cases (`@screen-service/native-agents` `createNativeAgents`). */
export interface NativeAgentsPort {
  offer(): { starters: NativeStarterView[] };
  add(
    userId: string,
    input: { starter?: unknown; name?: unknown; instructions?: unknown },
  ): Promise<AgentView>;
  instructions(userId: string, agentId: string): Promise<NativeInstructionsView>;
  setInstructions(userId: string, agentId: string, instructions: unknown): Promise<NativeInstructionsView>;
}

/**
 * Everything the routes need: the core's use cases (`createCore`) and the OAuth server's person-side calls.
 * Built with {@link personApiServices}; tests may pass their own.
 */
export interface PersonApiServices {
  accounts: Pick<
    Accounts,
    'signUp' | 'signIn' | 'refresh' | 'signOut' | 'signOutEverywhere' | 'verifyAccess' | 'me' | 'setTimeZone'
  > & {
    /** Deletes the account, its rows and its stored files (confirmed with the password). */
    deleteAccount(user: AppPrincipal, password: unknown): Promise<void>;
  };
  agents: Pick<
    PersonAgents,
    'list' | 'get' | 'create' | 'mintCode' | 'update' | 'reorder' | 'connections' | 'removeConnection'
  > & {
    /** Deletes the agent, its thread and its stored files; its relay tables go too unless kept. */
    delete(userId: string, agentId: string, options?: { keepTables?: boolean }): Promise<void>;
  };
  threads: Pick<PersonThreads, 'page' | 'pageText' | 'say' | 'tap' | 'setPresence' | 'markRead' | 'receipts'>;
  /** The receipts' published keys (ADR 0261); absent: the service signs none. */
  receiptKeys?: () => Promise<{ keys: Record<string, unknown>[] }>;
  photos: Pick<Photos, 'upload' | 'open'> & {
    /** Largest accepted upload, in bytes (the body parser stops there). */
    readonly maxBytes: number;
  };
  oauth: PersonOAuth;
  notifier: Pick<Notifier, 'subscribe'>;
  /** Relay tables: the person's controls (list, give, take away, delete) and this device's copy. */
  tables: Pick<Tables, 'list' | 'give' | 'takeAway' | 'remove' | 'replica'>;
  /** Web Push: this person's devices and whether the service can send at all. */
  push: Pick<PushService, 'status' | 'subscribe' | 'unsubscribe' | 'saveSettings' | 'setActive'> &
    Pick<NotificationAnswers, 'answer'>;
  /** Native agents; absent or null when the operator configured no model (the app then offers none). */
  native?: NativeAgentsPort | null;
  /** Shared agents: the invite claim page, and the owner's grants with revoke. */
  shares: Pick<Shares, 'previewInvite' | 'claim' | 'given' | 'revoke' | 'send'>;
  /** What the app needs to know of the operator's settings (`GET /app-config`); absent: nothing set. */
  appConfig?: AppConfigOptions;
}

/** The operator's settings the person's app uses. */
export interface AppConfigOptions {
  /** The image-generation CDN template with `{prompt}` (`SVC_IMAGE_CDN`, ADR 0111). */
  imageCdn?: string | undefined;
}

/**
 * The person's API over the core: every route calls one of the core's use cases.
 *
 * @example
 * ```ts
 * const core = createCore({ store, hasher, secret, urls, photoFiles });
 * app.use(API_PREFIX, createPersonRouter({ services: personApiServices(core, oauthServer) }));
 * ```
 */
export function personApiServices(
  core: Core,
  oauth: PersonOAuth,
  native: NativeAgentsPort | null = null,
  appConfig: AppConfigOptions = {},
): PersonApiServices {
  return {
    accounts: {
      signUp: core.accounts.signUp,
      signIn: core.accounts.signIn,
      refresh: core.accounts.refresh,
      signOut: core.accounts.signOut,
      signOutEverywhere: core.accounts.signOutEverywhere,
      verifyAccess: core.accounts.verifyAccess,
      me: core.accounts.me,
      setTimeZone: core.accounts.setTimeZone,
      deleteAccount: core.deleteAccount,
    },
    agents: {
      list: core.agents.list,
      get: core.agents.get,
      create: core.agents.create,
      mintCode: core.agents.mintCode,
      update: core.agents.update,
      reorder: core.agents.reorder,
      connections: core.agents.connections,
      removeConnection: core.agents.removeConnection,
      delete: core.deleteAgent,
    },
    threads: core.threads,
    receiptKeys: () => core.receipts.jwks(),
    photos: { upload: core.photos.upload, open: core.photos.open, maxBytes: core.photos.maxBytes },
    oauth,
    notifier: core.notifier,
    tables: core.tables,
    push: {
      status: core.push.status,
      subscribe: core.push.subscribe,
      unsubscribe: core.push.unsubscribe,
      saveSettings: core.push.saveSettings,
      setActive: core.push.setActive,
      answer: core.notificationAnswers.answer,
    },
    native,
    shares: core.shares,
    appConfig,
  };
}
