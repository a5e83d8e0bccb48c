// The use cases the person's API calls. Handlers reach the rules only through these (never a repository).

import type { Readable } from 'node:stream';
import type {
  Accounts,
  AppPrincipal,
  Notifier,
  PersonAgents,
  PersonThreads,
} from '@screen-service/service-core';
import type { OAuthDecisionInput, OAuthRequestView } from './schemas.js';

/** The account's own view (`GET /me`). */
export interface MeView {
  id: string;
  email: string;
  created_at: string;
}

/** An uploaded photo: its id (to attach to an answer) and a signed link. */
export interface UploadedPhoto {
  id: string;
  url: string;
}

/** A stored photo opened through a valid signed link. */
export interface OpenedPhoto {
  contentType: string;
  bytes: number;
  stream(): Readable;
}

/** A pending OAuth sign-in as the person's app shows it, and the person's decision on it. */
export interface PersonOAuth {
  personView(userId: string, requestId: string): Promise<OAuthRequestView>;
  decide(userId: string, requestId: string, decision: OAuthDecisionInput): Promise<OAuthRequestView>;
}

/**
 * Everything the routes need, built by the server from the core (`createCore`) and the OAuth server.
 *
 * @example
 * ```ts
 * const router = createPersonRouter({ services: { accounts, agents, threads, photos, oauth, notifier } });
 * ```
 */
export interface PersonApiServices {
  accounts: Pick<Accounts, 'signUp' | 'signIn' | 'refresh' | 'signOut' | 'verifyAccess'> & {
    /** The signed-in account's own view. */
    me(user: AppPrincipal): Promise<MeView>;
    /** Deletes the account, its rows and its stored files (confirmed with the password). */
    deleteAccount(user: AppPrincipal, password: string): Promise<void>;
  };
  agents: Pick<
    PersonAgents,
    'list' | 'get' | 'create' | 'mintCode' | 'update' | 'reorder' | 'connections' | 'removeConnection'
  > & {
    /** Deletes the agent, its thread and its stored files. */
    delete(userId: string, agentId: string): Promise<void>;
  };
  threads: Pick<PersonThreads, 'page' | 'say' | 'tap' | 'setPresence' | 'markRead'>;
  photos: {
    /** Checks and stores an uploaded photo for the person's next answer in this agent's thread. */
    upload(
      userId: string,
      agentId: string,
      input: { contentType: string; bytes: Uint8Array | undefined },
    ): Promise<UploadedPhoto>;
    /** The photo behind a signed link, or null when the link is unknown, forged or expired. */
    open(photoId: string, exp: string | undefined, sig: string | undefined): Promise<OpenedPhoto | null>;
    /** Largest accepted upload, in bytes (the body parser stops there). */
    readonly maxBytes: number;
  };
  oauth: PersonOAuth;
  notifier: Pick<Notifier, 'subscribe'>;
}
