// Management tokens (doc2 `svc_mt_`): minted in the app, shown once, stored as a SHA-256 hash, verified in
// constant time, `last_used_at` kept on every use, revocable by their owner only.
import {
  type Clock,
  newId as defaultNewId,
  digestsEqual,
  hashSecret,
  mintToken,
  type Random,
  ServiceError,
  systemClock,
  systemRandom,
} from '@screen-service/registry/kernel';
import type { ManagementTokenRecord, Store } from '@screen-service/registry/model';

/** The prefix every management token starts with. */
export const MANAGEMENT_TOKEN_PREFIX = 'svc_mt_';

/** A live token's owner, as {@link ManagementTokens.verify} resolves it. */
export interface ManagementTokenPrincipal {
  userId: string;
  tokenId: string;
}

/** A token as the app lists it: never the token or its hash. */
export interface ManagementTokenView {
  id: string;
  name: string;
  scope: 'agents:manage';
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface ManagementTokensOptions {
  store: Pick<Store, 'managementTokens' | 'users'>;
  now?: Clock;
  random?: Random;
}

export interface ManagementTokens {
  /** Mints a token named `name`; the answer is the only time the token is seen. */
  create(userId: string, name: unknown): Promise<{ token: string; management_token: ManagementTokenView }>;
  /** The user's tokens, newest first, revoked ones included (with `revoked_at`). */
  list(userId: string): Promise<ManagementTokenView[]>;
  /** Revokes one of the user's live tokens; it stops at the next request. */
  revoke(userId: string, tokenId: unknown): Promise<void>;
  /**
   * The owner of a live token, recording the use in `last_used_at`.
   *
   * @throws {ServiceError} `UNAUTHORIZED` for an unknown or revoked token, `SUSPENDED` for a suspended account.
   */
  verify(token: string): Promise<ManagementTokenPrincipal>;
}

/** Token names: what the person typed, trimmed, 1 to 40 characters, one line. */
function tokenName(value: unknown): string {
  const name = typeof value === 'string' ? value.trim() : '';
  if (
    name.length < 1 ||
    name.length > 40 ||
    [...name].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)
  ) {
    throw new ServiceError(
      'INVALID_INPUT',
      'name must be 1 to 40 characters on one line (what the token is for).',
      { field: 'name' },
    );
  }
  return name;
}

function toView(t: ManagementTokenRecord): ManagementTokenView {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    id: t.id,
    name: t.name,
    scope: t.scope,
    created_at: new Date(t.createdAt).toISOString(),
    last_used_at: iso(t.lastUsedAt),
    revoked_at: iso(t.revokedAt),
  };
}

/**
 * @example
 * ```ts
 * const tokens = createManagementTokens({ store });
 * const { token } = await tokens.create(userId, 'my laptop agent'); // 'svc_mt_...' (shown once)
 * const { userId: owner } = await tokens.verify(token);
 * ```
 */
export function createManagementTokens(options: ManagementTokensOptions): ManagementTokens {
  const { store } = options;
  const now = options.now ?? systemClock;
  const random = options.random ?? systemRandom;
  const unauthorized = () =>
    new ServiceError(
      'UNAUTHORIZED',
      'The management token is not valid or was revoked: create a new one in the app under Agent access.',
    );

  return {
    async create(userId, name) {
      const clean = tokenName(name);
      const token = mintToken(MANAGEMENT_TOKEN_PREFIX, random);
      const record = await store.managementTokens.create({
        id: defaultNewId('mt_', random),
        userId,
        name: clean,
        tokenHash: hashSecret(token),
        scope: 'agents:manage',
        createdAt: now(),
        lastUsedAt: null,
        revokedAt: null,
      });
      return { token, management_token: toView(record) };
    },

    async list(userId) {
      return (await store.managementTokens.listByUser(userId)).map(toView);
    },

    async revoke(userId, tokenId) {
      if (typeof tokenId !== 'string' || tokenId.length === 0) {
        throw new ServiceError(
          'INVALID_INPUT',
          'id must be the id of one of your tokens (from token_list).',
          { field: 'id' },
        );
      }
      if (!(await store.managementTokens.revoke(userId, tokenId, now()))) {
        throw new ServiceError('NOT_FOUND', `No live management token ${tokenId} in your account.`, {
          field: 'id',
        });
      }
    },

    async verify(token) {
      if (!token.startsWith(MANAGEMENT_TOKEN_PREFIX)) throw unauthorized();
      const hash = hashSecret(token);
      const t = await store.managementTokens.findByHash(hash);
      // The lookup is by hash; the constant-time compare keeps the check honest if the index ever changes.
      if (!t || !digestsEqual(t.tokenHash, hash) || t.revokedAt !== null) throw unauthorized();
      const user = await store.users.findById(t.userId);
      if (!user) throw unauthorized();
      if (user.suspendedAt !== null) throw new ServiceError('SUSPENDED', 'This account is suspended.');
      await store.managementTokens.touch(t.id, now());
      return { userId: t.userId, tokenId: t.id };
    },
  };
}
