// The OAuth rules in one object: registration, authorize, the consent handshake, tokens and revocation.
// Protocol refusals are OAuthErrors; the person's-API operations throw the registry's ServiceErrors.

import type { PersonAgents } from '@screen-service/registry/agents';
import {
  newId as defaultNewId,
  type Notifier,
  type Random,
  systemClock,
  systemRandom,
} from '@screen-service/registry/kernel';
import type { Store } from '@screen-service/registry/model';
import { createAuthorize } from './authorize.js';
import {
  type ClientMetadataDocumentOptions,
  createClientMetadataDocuments,
} from './client-metadata-document.js';
import { createConsent } from './consent.js';
import type { OAuthContext } from './context.js';
import { createDecisionWaits } from './decision-waits.js';
import { authorizationServerMetadata, type OAuthUrls, protectedResourceMetadata } from './metadata.js';
import { createTokens } from './tokens.js';

export interface OAuthServerOptions {
  store: Store;
  /** Makes the new agent an approval asks for (the registry's `createPersonAgents`). */
  agents: Pick<PersonAgents, 'create' | 'delete'>;
  urls: OAuthUrls;
  /** Told when an approval or revocation changes a person's agents (their live app updates). */
  notifier?: Notifier;
  now?: () => number;
  /** Randomness for ids, secrets, codes and tokens (default: the OS CSPRNG). */
  random?: Random;
  newId?: (prefix: string) => string;
  /**
   * Client ID Metadata Documents: a client_id that is an https URL is fetched (public addresses only,
   * 5 KiB, 5 s, cached per its headers) instead of registered. On by default; `false` takes registered
   * clients only. `allowLoopback` is a test setting.
   */
  clientMetadataDocuments?: ClientMetadataDocumentOptions | false;
}

/**
 * @example
 * ```ts
 * const oauth = createOAuthServer({ store, agents, urls: { baseUrl, oauthUrl, mcpUrl, connectPageUrl } });
 * const auth = createConnectionAuth({ store, expectKind: 'mcp', resolveAccessToken: oauth.resolveAccessToken });
 * app.use('/functions/v1/svc-oauth', createOAuthRouter({ oauth }));
 * ```
 */
export function createOAuthServer(options: OAuthServerOptions) {
  const random = options.random ?? systemRandom;
  const ctx: OAuthContext = {
    store: options.store,
    agents: options.agents,
    notifier: options.notifier,
    urls: options.urls,
    now: options.now ?? systemClock,
    newId: options.newId ?? ((prefix: string) => defaultNewId(prefix, random)),
    random,
    waits: createDecisionWaits(options.notifier),
    documents:
      options.clientMetadataDocuments === false
        ? undefined
        : createClientMetadataDocuments({
            now: options.now ?? systemClock,
            ...options.clientMetadataDocuments,
          }),
  };
  const tokens = createTokens(ctx);
  const consent = createConsent(ctx);
  return {
    urls: ctx.urls,
    metadata: () =>
      authorizationServerMetadata(ctx.urls, { clientIdMetadataDocuments: ctx.documents !== undefined }),
    resourceMetadata: () => protectedResourceMetadata(ctx.urls),
    authorize: createAuthorize(ctx),
    register: tokens.register,
    token: tokens.token,
    revoke: tokens.revoke,
    resolveAccessToken: tokens.resolveAccessToken,
    pageView: consent.pageView,
    enterCode: consent.enterCode,
    cancel: consent.cancel,
    finish: consent.finish,
    personView: consent.personView,
    decide: consent.decide,
    /** Consent pages waiting on a decision right now. */
    waitingPages: () => ctx.waits.size(),
  };
}

export type OAuthServer = ReturnType<typeof createOAuthServer>;
