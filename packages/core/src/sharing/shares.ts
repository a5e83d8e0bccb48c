// Shared agents (doc2 "Shared-agent resources", "Grant", "Client-safe"): the owner's templates, invites and
// grants, the holder's claim, and revoke. The client-safe rule is checked in each write's transaction
// (share-writes.ts), so the refusal names the broken rule and no write can skip it.

import { normalizeEmail } from '@screen-service/registry/accounts';
import * as check from '@screen-service/registry/agents';
import { type ShareWhy, shareWhy } from '@screen-service/registry/hosts';
import type { Notifier } from '@screen-service/registry/kernel';
import {
  type Clock,
  newId as defaultNewId,
  hashSecret,
  isServiceError,
  mintName,
  mintToken,
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
import type { PushService } from '../push/push.js';
import { defaultScreenLines, type ScreenLinesPort } from '../threads/screen-lines-port.js';
import { createThreadCore } from '../threads/thread-core.js';
import { tapsOf } from '../threads/thread-ops.js';
import { readAnswers } from './invite-answers.js';
import { writeGrant, writeTemplate } from './share-writes.js';

const TEMPLATE_NAME = /^[a-z0-9][a-z0-9-]{0,39}$/;

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
  skipped: { agent_id: string; share_why: ShareWhy[] }[];
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

/**
 * @example
 * ```ts
 * const shares = createShares({ store, notifier, push, inviteLink: (t) => `${base}/#/invite/${t}` });
 * const { link } = await shares.send(ownerId, await shares.plan(ownerId));
 * ```
 */
export function createShares(options: SharesOptions): Shares {
  const { store, notifier } = options;
  const now = options.now ?? systemClock;
  const random = options.random ?? systemRandom;
  const screenLines = options.screenLines ?? defaultScreenLines;
  const newId = (prefix: string) => defaultNewId(prefix, random);
  const writer = createThreadCore({
    store,
    notifier,
    now,
    random,
    screenLines,
    ...(options.onPushQueued ? { onPushQueued: options.onPushQueued } : {}),
  });

  async function ownedAgent(ownerId: string, ref: unknown): Promise<AgentRecord> {
    if (typeof ref !== 'string' || ref.trim() === '') {
      throw new ServiceError('INVALID_INPUT', 'agent must be the handle or id of one of your agents.', {
        field: 'agent',
      });
    }
    const byId = await store.agents.get(ref);
    const a = byId && byId.userId === ownerId ? byId : await store.agents.findByHandle(ownerId, ref.trim());
    if (!a)
      throw new ServiceError('AGENT_NOT_FOUND', `No agent "${ref}" in your account.`, { field: 'agent' });
    return a;
  }

  async function userByRef(ref: unknown): Promise<UserRecord> {
    if (typeof ref !== 'string' || ref.trim() === '') {
      throw new ServiceError('INVALID_INPUT', "user must be the person's email or user id.", {
        field: 'user',
      });
    }
    const u = ref.includes('@')
      ? await store.users.findByEmail(normalizeEmail(ref))
      : await store.users.findById(ref.trim());
    if (!u) {
      throw new ServiceError(
        'NOT_FOUND',
        `No account "${ref}": the person signs up first (or claims an invite).`,
        {
          field: 'user',
        },
      );
    }
    return u;
  }

  async function defaultBy(ownerId: string): Promise<string> {
    const owner = await store.users.findById(ownerId);
    return owner?.firstName ?? owner?.email.split('@')[0] ?? 'your host';
  }

  function text(value: unknown, field: string, max: number, min = 1): string {
    if (typeof value !== 'string' || value.trim().length < min || value.trim().length > max) {
      throw new ServiceError('INVALID_INPUT', `${field} must be ${min} to ${max} characters.`, { field });
    }
    return value.trim();
  }

  function templateName(value: unknown): string {
    if (typeof value !== 'string' || !TEMPLATE_NAME.test(value)) {
      throw new ServiceError(
        'INVALID_INPUT',
        'template name must be a slug: lower-case letters, digits and dashes, 1 to 40, e.g. "family".',
        { field: 'name' },
      );
    }
    return value;
  }

  async function templateView(t: ShareTemplateRecord): Promise<TemplateView> {
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

  async function givenView(g: GrantRecord): Promise<GivenGrantView> {
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

  /** The grant's first message at the top of the new thread (`meta.first`), as a screen when it is one. */
  async function writeFirst(agent: AgentRecord, grant: GrantRecord) {
    if (!grant.firstMessage) return;
    const target = { userId: grant.userId, grantMuted: grant.pushMuted };
    const id = writer.newId('scr_');
    const parsed = screenLines.parse(grant.firstMessage, { screen: id });
    if (parsed.errors.length === 0 && parsed.ops.length > 0) {
      await writer.appendAgentScreen(
        agent,
        { body: grant.firstMessage, meta: { first: true }, connectorId: null },
        { id, lines: grant.firstMessage, ops: parsed.ops, taps: tapsOf(parsed.ops) },
        target,
      );
    } else {
      await writer.appendAgentText(agent, grant.firstMessage, { first: true }, null, undefined, target);
    }
  }

  async function insertGrant(
    agent: AgentRecord,
    userId: string,
    fields: {
      theme: Record<string, unknown>;
      firstMessage: string | null;
      template: string | null;
      inviteId: string | null;
      sharedBy: string;
    },
  ): Promise<GrantRecord> {
    if (userId === agent.userId) {
      throw new ServiceError('INVALID_INPUT', 'An owner cannot be granted their own agent.', {
        field: 'user',
      });
    }
    const grant = await writeGrant(store, {
      id: newId('grt_'),
      agentId: agent.id,
      ownerId: agent.userId,
      userId,
      role: 'user',
      ...fields,
      pushMuted: false,
      grantedAt: now(),
    });
    await writeFirst(agent, grant);
    notifier.publish({ type: 'agents', userId });
    notifier.publish({ type: 'agents', userId: agent.userId });
    return grant;
  }

  async function saveTemplate(ownerId: string, input: TemplateInput): Promise<ShareTemplateRecord> {
    const name = templateName(input.name);
    const title = text(input.title, 'title', 60);
    const sharedBy =
      input.shared_by === undefined ? await defaultBy(ownerId) : text(input.shared_by, 'shared_by', 60);
    if (!Array.isArray(input.items) || input.items.length === 0 || input.items.length > 50) {
      throw new ServiceError(
        'INVALID_INPUT',
        'items must list 1 to 50 agents, each {agent, first_message}.',
        {
          field: 'items',
        },
      );
    }
    const items = [];
    for (const [n, raw] of (input.items as TemplateItemInput[]).entries()) {
      const agent = await ownedAgent(ownerId, raw?.agent);
      items.push({
        agentId: agent.id,
        theme: raw.theme === undefined ? {} : check.theme(raw.theme),
        firstMessage: text(raw.first_message, `items[${n}].first_message`, 2000),
        sort: Number.isInteger(raw.sort) ? (raw.sort as number) : n,
      });
    }
    if (new Set(items.map((i) => i.agentId)).size !== items.length) {
      throw new ServiceError('INVALID_INPUT', 'items names an agent twice: one item per agent.', {
        field: 'items',
      });
    }
    return writeTemplate(store, { ownerId, name, title, sharedBy, updatedAt: now(), items }, () =>
      newId('tpl_'),
    );
  }

  async function template(ownerId: string, name: unknown): Promise<ShareTemplateRecord> {
    const t = await store.shares.getTemplate(ownerId, templateName(name));
    if (!t)
      throw new ServiceError('NOT_FOUND', `No template "${name}": save one first.`, { field: 'template' });
    return t;
  }

  async function inviteByToken(token: unknown) {
    const invite =
      typeof token === 'string' && token.startsWith('svc_inv_')
        ? await store.shares.findInviteByHash(hashSecret(token))
        : null;
    if (!invite) {
      throw new ServiceError(
        'NOT_FOUND',
        'This invite link is not valid: ask the person who sent it for a new one.',
        {
          field: 'token',
        },
      );
    }
    if (now() - invite.createdAt > INVITE_TTL_MS) {
      throw new ServiceError(
        'NOT_FOUND',
        'This invite link expired (links last 7 days): ask for a new one.',
        {
          field: 'token',
        },
      );
    }
    return invite;
  }

  async function createInvite(ownerId: string, input: { template: unknown; first_name?: unknown }) {
    const t = await template(ownerId, input.template);
    const firstName =
      input.first_name === undefined || input.first_name === null || input.first_name === ''
        ? null
        : text(input.first_name, 'first_name', 40);
    const token = mintToken('svc_inv_', random);
    const invite = await store.shares.createInvite({
      id: newId('inv_'),
      ownerId,
      templateId: t.id,
      tokenHash: hashSecret(token),
      firstName,
      createdAt: now(),
      approvedAt: null,
      claimedAt: null,
      claimedBy: null,
    });
    return {
      invite_id: invite.id,
      expires_at: new Date(invite.createdAt + INVITE_TTL_MS).toISOString(),
      token,
      link: options.inviteLink(token),
      template: t.name,
      approved: false,
    };
  }

  const api: Shares = {
    async safe(ownerId, ref) {
      const a = await ownedAgent(ownerId, ref);
      return {
        agent: { id: a.id, handle: a.handle, name: a.name },
        client_safe: a.clientSafe,
        share_why: shareWhy(a),
      };
    },

    async saveTemplate(ownerId, input) {
      return templateView(await saveTemplate(ownerId, input));
    },

    async listTemplates(ownerId) {
      return Promise.all((await store.shares.listTemplates(ownerId)).map(templateView));
    },

    async showTemplate(ownerId, name) {
      return templateView(await template(ownerId, name));
    },

    async deleteTemplate(ownerId, name) {
      return { deleted: await store.shares.deleteTemplate(ownerId, templateName(name)) };
    },

    createInvite,

    async approveInvite(ownerId, inviteId) {
      const ok = await store.shares.approveInvite(ownerId, inviteId, now());
      if (!ok)
        throw new ServiceError('NOT_FOUND', `No unapproved invite ${inviteId}.`, { field: 'invite_id' });
      return { approved: true };
    },

    async previewInvite(token) {
      const invite = await inviteByToken(token);
      const t = await store.shares.getTemplateById(invite.templateId);
      const agents = [];
      for (const i of t?.items ?? []) {
        const a = await store.agents.get(i.agentId);
        if (a) agents.push({ name: a.name, color: a.color });
      }
      return {
        title: t?.title ?? '',
        shared_by: t?.sharedBy ?? '',
        first_name: invite.firstName,
        agents,
        claimable: invite.approvedAt !== null && invite.claimedAt === null,
        expires_at: new Date(invite.createdAt + INVITE_TTL_MS).toISOString(),
      };
    },

    async claim(userId, token) {
      const invite = await inviteByToken(token);
      if (invite.ownerId === userId) {
        throw new ServiceError(
          'INVALID_INPUT',
          'This is your own invite: send the link to the person you share with.',
          {
            field: 'token',
          },
        );
      }
      if (invite.approvedAt === null) {
        throw new ServiceError(
          'FORBIDDEN',
          'This invite is not approved yet: ask its sender to approve it.',
          {
            field: 'token',
          },
        );
      }
      if (!(await store.shares.claimInvite(invite.id, userId, now()))) {
        throw new ServiceError('CONFLICT', 'This invite was already used: ask its sender for a new link.', {
          field: 'token',
        });
      }
      if (invite.firstName) await store.shares.setFirstName(userId, invite.firstName);
      const t = await store.shares.getTemplateById(invite.templateId);
      const result: ClaimResult = { granted: [], skipped: [] };
      for (const item of t?.items ?? []) {
        const agent = await store.agents.get(item.agentId);
        if (!agent) continue;
        try {
          await insertGrant(agent, userId, {
            theme: item.theme,
            firstMessage: item.firstMessage,
            template: t!.name,
            inviteId: invite.id,
            sharedBy: t!.sharedBy,
          });
          result.granted.push({ agent_id: agent.id, name: agent.name });
        } catch (err) {
          // Checked in the grant's transaction: an item whose agent is not client-safe now is skipped, and
          // the claim goes on.
          if (isServiceError(err, 'NOT_CLIENT_SAFE')) {
            result.skipped.push({ agent_id: agent.id, share_why: shareWhy(agent) });
          } else if (isServiceError(err, 'CONFLICT')) {
            // Already held: the claim keeps the live grant and its thread.
            result.granted.push({ agent_id: agent.id, name: agent.name });
          } else throw err;
        }
      }
      return result;
    },

    async grant(ownerId, input) {
      const agent = await ownedAgent(ownerId, input.agent);
      const user = await userByRef(input.user);
      const by = input.by === undefined ? await defaultBy(ownerId) : text(input.by, 'by', 60);
      const g = await insertGrant(agent, user.id, {
        theme: input.look ? agent.theme : {},
        firstMessage: input.hello
          ? `Hi${user.firstName ? ` ${user.firstName}` : ''}! I'm ${agent.name}; ${by} shared me with you.`
          : null,
        template: null,
        inviteId: null,
        sharedBy: by,
      });
      return givenView(g);
    },

    async revoke(ownerId, input) {
      const agent = await ownedAgent(ownerId, input.agent);
      const user = await userByRef(input.user);
      const g = await store.shares.revoke(ownerId, agent.id, user.id, now());
      if (!g) {
        throw new ServiceError(
          'NOT_FOUND',
          `${String(input.user)} holds no live grant for ${agent.handle}.`,
          {
            field: 'user',
          },
        );
      }
      // doc2 Other: only a grant with no live row pushes (a revoke just ended the only one).
      if (!(await store.shares.liveGrant(agent.id, user.id))) await options.push.revoked(user.id, agent.id);
      notifier.publish({ type: 'agents', userId: user.id });
      notifier.publish({ type: 'agents', userId: ownerId });
      const { user: holder, ...view } = await givenView(g);
      return { ...view, user: { id: holder.id, first_name: holder.first_name } };
    },

    async given(ownerId) {
      return Promise.all((await store.shares.listGiven(ownerId)).map(givenView));
    },

    async plan(ownerId) {
      const safe = (await store.agents.listByUser(ownerId)).filter((a) => a.clientSafe);
      const by = await defaultBy(ownerId);
      const plan: InvitePlan = {
        template: `once-${mintName(4, random)}`,
        title: `${by}'s agents`.slice(0, 60),
        shared_by: by,
        first_name: '',
        agents: safe.map((a) => a.handle).join(','),
      };
      for (const a of safe) plan[`hello_${a.handle}`] = `Hi! I'm ${a.name}; ${by} shared me with you.`;
      return plan;
    },

    async send(ownerId, raw) {
      const answers = readAnswers(raw);
      const handles = String(answers.agents ?? '')
        .split(',')
        .map((h) => h.trim())
        .filter((h) => h !== '');
      if (handles.length === 0) {
        throw new ServiceError(
          'INVALID_INPUT',
          'agents must name at least one of your agents (comma-separated handles).',
          {
            field: 'agents',
          },
        );
      }
      const name =
        typeof answers.template === 'string' && answers.template !== ''
          ? answers.template
          : `once-${mintName(4, random)}`;
      const items = [];
      for (const h of handles) {
        // Checked again when the template is saved: the plan may be older than the host's last heartbeat.
        const agent = await ownedAgent(ownerId, h);
        const hello = answers[`hello_${agent.handle}`];
        items.push({
          agent: agent.id,
          first_message: typeof hello === 'string' && hello.trim() !== '' ? hello : `Hi! I'm ${agent.name}.`,
        });
      }
      await saveTemplate(ownerId, {
        name,
        title: answers.title ?? `${await defaultBy(ownerId)}'s agents`,
        ...(answers.shared_by !== undefined && answers.shared_by !== ''
          ? { shared_by: answers.shared_by }
          : {}),
        items,
      });
      const created = await createInvite(ownerId, {
        template: name,
        ...(typeof answers.first_name === 'string' && answers.first_name !== ''
          ? { first_name: answers.first_name }
          : {}),
      });
      await store.shares.approveInvite(ownerId, created.invite_id, now());
      return { ...created, approved: true };
    },
  };
  return api;
}
