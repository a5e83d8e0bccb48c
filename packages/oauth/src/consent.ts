// The consent handshake between `/authorize` and the client's redirect: the consent page (bound to its
// browser by a cookie secret) reads and waits on the request, takes a 6-digit code or a cancel, and
// finishes; the signed-in person approves or denies through the person's API.

import { redeemCode } from '@screen-service/registry/hosts';
import { digestsEqual, hashSecret, isServiceError, ServiceError } from '@screen-service/registry/kernel';
import type { OAuthClientRecord, OAuthRequestRecord } from '@screen-service/registry/model';
import { approveWithPairingCode } from './code-redemption.js';
import type { OAuthContext } from './context.js';
import { OAuthError } from './errors.js';
import { AUTH_CODE_TTL_MS, MAX_POLL_WAIT_S } from './limits.js';
import { withQuery } from './redirect-uri.js';
import { randomSecret } from './secrets.js';

export type RequestStatus = 'pending' | 'approved' | 'denied' | 'expired' | 'finished';

/** What the consent page and the approving person see of a request. */
export interface RequestView {
  id: string;
  status: RequestStatus;
  /** `host`: where the client's metadata document lives (its client_id URL's host); null for a registered client. */
  client: { name: string; uri: string | null; logo_uri: string | null; host: string | null };
  redirect: { uri: string; host: string };
  expires_at: string;
  agent: { id: string; name: string } | null;
}

/** The consent page's view adds the link the phone opens. */
export interface PageView extends RequestView {
  approve_url: string;
}

/** The person's decision (`POST {app}/oauth/requests/:id/decision`). */
export interface DecisionInput {
  decision: 'allow' | 'deny';
  /** Talk as this existing agent (allow only); absent: a new agent. */
  agent_id?: string | undefined;
  /** The new agent's name; default the client's name. */
  agent_name?: string | undefined;
}

/** A code refusal of the registry's `redeemCode` as this page's OAuth error (anything else unchanged). */
function codeRefusal(err: unknown): unknown {
  if (!isServiceError(err)) return err;
  if (err.code === 'TOO_MANY_ATTEMPTS') return new OAuthError('temporarily_unavailable', err.message);
  if (err.code === 'INVALID_INPUT') {
    return new OAuthError(
      'invalid_request',
      'Type the 6 digits the app shows for the agent (spaces or a dash between them are fine).',
    );
  }
  if (err.code === 'INVALID_OR_EXPIRED_CODE') {
    return new OAuthError(
      'invalid_grant',
      'That code is unknown, used or expired: add the agent again in the app for a new code.',
    );
  }
  return err;
}

function statusOf(r: OAuthRequestRecord, at: number): RequestStatus {
  if (r.finishedAt !== null) return 'finished';
  if (r.status === 'pending' && r.expiresAt <= at) return 'expired';
  return r.status;
}

function hostOf(uri: string): string {
  try {
    const u = new URL(uri);
    return u.host || `${u.protocol}${u.pathname}`;
  } catch {
    return uri;
  }
}

async function view(
  ctx: OAuthContext,
  r: OAuthRequestRecord,
  client?: OAuthClientRecord | null,
): Promise<RequestView> {
  const c = client ?? (await ctx.store.oauth.getClient(r.clientId));
  const agent = r.agentId ? await ctx.store.agents.get(r.agentId) : null;
  const meta = c?.metadata ?? {};
  return {
    id: r.id,
    status: statusOf(r, ctx.now()),
    client: {
      name: c?.name ?? 'An unknown app',
      uri: typeof meta.client_uri === 'string' ? meta.client_uri : null,
      logo_uri: typeof meta.logo_uri === 'string' ? meta.logo_uri : null,
      // The host that vouches for the name: the metadata document's, for a client_id that is a URL.
      host: typeof meta.client_id_metadata_document === 'string' ? meta.client_id_metadata_document : null,
    },
    redirect: { uri: r.redirectUri, host: hostOf(r.redirectUri) },
    expires_at: new Date(r.expiresAt).toISOString(),
    agent: agent && r.status === 'approved' ? { id: agent.id, name: agent.name } : null,
  };
}

const approveUrl = (ctx: OAuthContext, id: string) =>
  `${ctx.urls.baseUrl}/#/approve/${encodeURIComponent(id)}`;
async function pageView(ctx: OAuthContext, r: OAuthRequestRecord): Promise<PageView> {
  return { ...(await view(ctx, r)), approve_url: approveUrl(ctx, r.id) };
}

/** The request, if this browser started it. */
async function ownRequest(
  ctx: OAuthContext,
  id: string,
  browserSecret: string | undefined,
): Promise<OAuthRequestRecord> {
  const r = typeof id === 'string' && id.length <= 64 ? await ctx.store.oauth.getRequest(id) : null;
  if (!r) {
    throw new OAuthError(
      'invalid_request',
      'This sign-in request is unknown or finished long ago; start again from the app.',
      { status: 404 },
    );
  }
  if (!browserSecret || !digestsEqual(hashSecret(browserSecret), r.browserHash)) {
    throw new OAuthError(
      'access_denied',
      'This page belongs to the browser that started the sign-in; open it from the app that sent you here.',
    );
  }
  return r;
}

const decidedMeanwhile = () =>
  new OAuthError('invalid_request', 'This sign-in was decided or expired meanwhile; reload the page.', {
    status: 409,
  });

const refuseLate = (r: OAuthRequestRecord, at: number) => {
  const s = statusOf(r, at);
  if (s === 'pending') return;
  throw new OAuthError(
    'invalid_request',
    s === 'expired'
      ? 'This sign-in expired; start again from the app.'
      : 'This sign-in was already decided; reload the page.',
    { status: 409 },
  );
};

/** A request for the person's API: unknown, or decided by another account, is not found. */
async function personRequest(ctx: OAuthContext, userId: string, id: string): Promise<OAuthRequestRecord> {
  const r = id.length <= 64 ? await ctx.store.oauth.getRequest(id) : null;
  if (!r || (r.userId !== null && r.userId !== userId)) {
    throw new ServiceError(
      'OAUTH_REQUEST_NOT_FOUND',
      'This sign-in request is unknown or belongs to someone else; start again from the app.',
    );
  }
  return r;
}

/** The sign-in page's side: the browser that started the request polls it, types a code, cancels, finishes. */
function browserSide(ctx: OAuthContext) {
  const { store } = ctx;
  return {
    /** `GET {oauth}/requests/:id[?wait=s]`. */
    async pageView(id: string, browserSecret: string | undefined, waitS = 0, signal?: AbortSignal) {
      let r = await ownRequest(ctx, id, browserSecret);
      const wait = Math.max(0, Math.min(MAX_POLL_WAIT_S, Math.floor(waitS)));
      if (wait > 0 && statusOf(r, ctx.now()) === 'pending') {
        const untilExpiry = r.expiresAt - ctx.now();
        await ctx.waits.wait(id, Math.min(wait * 1000, untilExpiry), {
          ...(signal ? { signal } : {}),
          stillPending: async () => (await store.oauth.getRequest(id))?.status === 'pending',
        });
        r = (await store.oauth.getRequest(id)) ?? r;
      }
      return pageView(ctx, r);
    },

    /** `POST {oauth}/requests/:id/code`: approve as the agent whose 6-digit code the person typed. */
    async enterCode(id: string, browserSecret: string | undefined, code: unknown, clientAddr: string) {
      const r = await ownRequest(ctx, id, browserSecret);
      const at = ctx.now();
      refuseLate(r, at);
      // The one redemption rule of the registry (same normalisation and throttle as host pairing); its
      // refusals become this endpoint's OAuth errors.
      let userId = '';
      try {
        await redeemCode({
          store,
          code,
          clientAddr,
          at,
          async claim(row) {
            const outcome = await approveWithPairingCode(store, id, {
              codeId: row.id,
              userId: row.userId,
              agentId: row.agentId,
              at,
            });
            if (outcome === 'code_taken') return null;
            if (outcome === 'not_pending') throw decidedMeanwhile();
            userId = row.userId;
            return outcome;
          },
        });
      } catch (err) {
        throw codeRefusal(err);
      }
      ctx.waits.changed(id);
      ctx.notifier?.publish({ type: 'agents', userId });
      return pageView(ctx, (await store.oauth.getRequest(id))!);
    },

    /** `POST {oauth}/requests/:id/cancel`: the person backs out on the consent page. */
    async cancel(id: string, browserSecret: string | undefined) {
      const r = await ownRequest(ctx, id, browserSecret);
      const at = ctx.now();
      refuseLate(r, at);
      const done = await store.oauth.decide(id, { status: 'denied', userId: null, agentId: null, at });
      if (!done) throw decidedMeanwhile();
      ctx.waits.changed(id);
      return pageView(ctx, done);
    },

    /**
     * `GET {oauth}/requests/:id/finish`: where the browser goes back to the client, once. An approval
     * mints the single-use authorization code here; a denial or an expiry sends `access_denied`.
     */
    async finish(id: string, browserSecret: string | undefined): Promise<string> {
      const r = await ownRequest(ctx, id, browserSecret);
      const at = ctx.now();
      const s = statusOf(r, at);
      const back = (params: Record<string, string | null>) =>
        withQuery(r.redirectUri, { ...params, state: r.state, iss: ctx.urls.oauthUrl });
      if (s === 'finished') {
        throw new OAuthError(
          'invalid_request',
          'This sign-in already went back to the app; start again from the app.',
          { status: 409 },
        );
      }
      if (s === 'pending') {
        throw new OAuthError('invalid_request', 'Not decided yet: approve or deny in the app first.', {
          status: 409,
        });
      }
      if (s === 'expired') {
        return back({ error: 'access_denied', error_description: 'The sign-in was not approved in time.' });
      }
      const code = s === 'approved' ? randomSecret(ctx.random) : null;
      const ok = await store.oauth.finish(id, {
        at,
        codeHash: code ? hashSecret(code) : null,
        codeExpiresAt: code ? at + AUTH_CODE_TTL_MS : null,
      });
      if (!ok) {
        throw new OAuthError('invalid_request', 'This sign-in already went back to the app.', {
          status: 409,
        });
      }
      return code
        ? back({ code })
        : back({ error: 'access_denied', error_description: 'The person declined the sign-in.' });
    },
  };
}

/** The person's side, in the app: what a request asks, and the decision. */
function personSide(ctx: OAuthContext) {
  const { store } = ctx;
  return {
    /** `GET {app}/oauth/requests/:id`. */
    async personView(userId: string, id: string): Promise<RequestView> {
      return view(ctx, await personRequest(ctx, userId, id));
    },

    /** `POST {app}/oauth/requests/:id/decision`. */
    async decide(userId: string, id: string, input: DecisionInput): Promise<RequestView> {
      const r = await personRequest(ctx, userId, id);
      const at = ctx.now();
      const s = statusOf(r, at);
      if (s === 'expired') {
        throw new ServiceError('OAUTH_REQUEST_EXPIRED', 'This sign-in expired; start again from the app.');
      }
      if (s !== 'pending') {
        throw new ServiceError(
          'OAUTH_REQUEST_DECIDED',
          r.userId === null
            ? 'This sign-in was cancelled on the sign-in page.'
            : 'You already answered this sign-in.',
        );
      }
      let agentId: string | null = null;
      let created: string | null = null;
      if (input.decision === 'allow') {
        if (input.agent_id !== undefined) {
          const a = await store.agents.get(input.agent_id);
          if (!a || a.userId !== userId) {
            throw new ServiceError('AGENT_NOT_FOUND', `No agent ${input.agent_id} in your account.`, {
              field: 'agent_id',
            });
          }
          agentId = a.id;
        } else {
          const client = await store.oauth.getClient(r.clientId);
          const name = input.agent_name ?? (client?.name ?? 'AI app').slice(0, 40).trim();
          const made = await ctx.agents.create(userId, { name, pair: false, kind: 'mcp' });
          agentId = created = made.agent.id;
        }
      }
      const done = await store.oauth.decide(id, {
        status: input.decision === 'allow' ? 'approved' : 'denied',
        userId,
        agentId,
        at,
      });
      if (!done) {
        if (created) await ctx.agents.delete(userId, created);
        throw new ServiceError('OAUTH_REQUEST_DECIDED', 'This sign-in was answered a moment ago.');
      }
      ctx.waits.changed(id);
      return view(ctx, done);
    },
  };
}

/** The consent handshake's use cases: the sign-in page's (browser) and the app's (person). */
export function createConsent(ctx: OAuthContext) {
  return { ...browserSide(ctx), ...personSide(ctx) };
}

export type Consent = ReturnType<typeof createConsent>;
