// What every shared-agent use case works with: the store, the clock, the thread writer, and the lookups and
// checks of input they share (the owner's agent, a person, a template name, the views they answer with).
import { normalizeEmail } from '@screen-service/registry/accounts';
import {
  newId as defaultNewId,
  type Random,
  ServiceError,
  systemClock,
  systemRandom,
} from '@screen-service/registry/kernel';
import type {
  AgentRecord,
  GrantRecord,
  ShareTemplateRecord,
  Store,
  UserRecord,
} from '@screen-service/registry/model';
import { defaultScreenLines, type ScreenLinesPort } from '@screen-service/screen-rules';
import { createThreadCore } from '../threads/thread-core.js';
import type { GivenGrantView, SharesOptions, TemplateView } from './share-types.js';

const TEMPLATE_NAME = /^[a-z0-9][a-z0-9-]{0,39}$/;

/** The parts the use cases share, built once by `createShares`. */
export interface ShareContext {
  options: SharesOptions;
  store: Store;
  now: () => number;
  random: Random;
  screenLines: ScreenLinesPort;
  newId(prefix: string): string;
  writer: ReturnType<typeof createThreadCore>;
}

/** Builds the context from the options of `createShares`. */
export function createShareContext(options: SharesOptions): ShareContext {
  const { store, notifier } = options;
  const now = options.now ?? systemClock;
  const random = options.random ?? systemRandom;
  const screenLines = options.screenLines ?? defaultScreenLines;
  const writer = createThreadCore({
    store,
    notifier,
    now,
    random,
    screenLines,
    ...(options.onPushQueued ? { onPushQueued: options.onPushQueued } : {}),
  });
  return { options, store, now, random, screenLines, newId: (p) => defaultNewId(p, random), writer };
}

/** One of the owner's agents by handle or id; someone else's agent is as missing as an unknown one. */
export async function ownedAgent(store: Store, ownerId: string, ref: unknown): Promise<AgentRecord> {
  if (typeof ref !== 'string' || ref.trim() === '') {
    throw new ServiceError('INVALID_INPUT', 'agent must be the handle or id of one of your agents.', {
      field: 'agent',
    });
  }
  const byId = await store.agents.get(ref);
  const a = byId && byId.userId === ownerId ? byId : await store.agents.findByHandle(ownerId, ref.trim());
  if (!a) throw new ServiceError('AGENT_NOT_FOUND', `No agent "${ref}" in your account.`, { field: 'agent' });
  return a;
}

/** A person by email or user id. */
export async function userByRef(store: Store, ref: unknown): Promise<UserRecord> {
  if (typeof ref !== 'string' || ref.trim() === '') {
    throw new ServiceError('INVALID_INPUT', "user must be the person's email or user id.", { field: 'user' });
  }
  const u = ref.includes('@')
    ? await store.users.findByEmail(normalizeEmail(ref))
    : await store.users.findById(ref.trim());
  if (!u) {
    throw new ServiceError(
      'NOT_FOUND',
      `No account "${ref}": the person signs up first (or claims an invite).`,
      { field: 'user' },
    );
  }
  return u;
}

/** The name a holder reads as "shared by" when the owner gave none. */
export async function defaultBy(store: Store, ownerId: string): Promise<string> {
  const owner = await store.users.findById(ownerId);
  return owner?.firstName ?? owner?.email.split('@')[0] ?? 'your host';
}

/** A trimmed text of `min` to `max` characters, or `INVALID_INPUT` naming the field. */
export function text(value: unknown, field: string, max: number, min = 1): string {
  if (typeof value !== 'string' || value.trim().length < min || value.trim().length > max) {
    throw new ServiceError('INVALID_INPUT', `${field} must be ${min} to ${max} characters.`, { field });
  }
  return value.trim();
}

/** A template name: a slug of doc2's pattern. */
export function templateName(value: unknown): string {
  if (typeof value !== 'string' || !TEMPLATE_NAME.test(value)) {
    throw new ServiceError(
      'INVALID_INPUT',
      'template name must be a slug: lower-case letters, digits and dashes, 1 to 40, e.g. "family".',
      { field: 'name' },
    );
  }
  return value;
}

/** A template as the owner reads it (items whose agent is gone are left out). */
export async function templateView(store: Store, t: ShareTemplateRecord): Promise<TemplateView> {
  const items = [];
  for (const i of t.items) {
    const a = await store.agents.get(i.agentId);
    if (!a) continue;
    items.push({
      agent: { id: a.id, handle: a.handle, name: a.name },
      theme: i.theme,
      first_message: i.firstMessage,
      sort: i.sort,
    });
  }
  return {
    name: t.name,
    title: t.title,
    shared_by: t.sharedBy,
    items,
    updated_at: new Date(t.updatedAt).toISOString(),
  };
}

/** A grant as its owner reads it: who holds it, never their thread. */
export async function givenView(store: Store, g: GrantRecord): Promise<GivenGrantView> {
  const [a, u] = await Promise.all([store.agents.get(g.agentId), store.users.findById(g.userId)]);
  return {
    id: g.id,
    agent: { id: g.agentId, name: a?.name ?? '', handle: a?.handle ?? '' },
    user: { id: g.userId, email: u?.email ?? '', first_name: u?.firstName ?? null },
    shared_by: g.sharedBy,
    template: g.template,
    granted_at: new Date(g.grantedAt).toISOString(),
    revoked_at: g.revokedAt === null ? null : new Date(g.revokedAt).toISOString(),
  };
}
