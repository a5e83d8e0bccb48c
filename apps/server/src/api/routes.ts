// The person's API routes (mounted at /functions/v1/svc-app).
import fs from 'node:fs';
import { ServiceError } from '@screen-service/service-core';
import { MAX_PHOTO_BYTES, PHOTO_TYPES } from '../photos/photo-store.js';
import type { RouteDef } from './route-table.js';
import * as s from './schemas.js';
import { openThreadStream } from './thread-stream.js';

const agentOf = (p: Record<string, string>) => p.agentId!;

export const routes: RouteDef[] = [
  {
    method: 'post',
    path: '/auth/signup',
    summary: 'Create an account and sign in',
    auth: 'none',
    body: s.credentialsBody,
    response: s.sessionTokens,
    status: 201,
    handler: ({ services, body }) => services.accounts.signUp(body as { email: string; password: string }),
  },
  {
    method: 'post',
    path: '/auth/signin',
    summary: 'Sign in with email and password',
    auth: 'none',
    body: s.credentialsBody,
    response: s.sessionTokens,
    handler: ({ services, body }) => services.accounts.signIn(body as { email: string; password: string }),
  },
  {
    method: 'post',
    path: '/auth/refresh',
    summary: 'Trade a refresh token (usable once) for new tokens',
    auth: 'none',
    body: s.refreshBody,
    response: s.sessionTokens,
    handler: ({ services, body }) =>
      services.accounts.refresh((body as { refresh_token: string }).refresh_token),
  },
  {
    method: 'post',
    path: '/auth/signout',
    summary: 'End this sign-in (access and refresh tokens stop at once)',
    auth: 'user',
    handler: async ({ services, user }) => {
      await services.accounts.signOut(user);
    },
  },
  {
    method: 'get',
    path: '/me',
    summary: 'The signed-in account',
    auth: 'user',
    response: s.me,
    handler: async ({ services, user }) => {
      const u = await services.store.users.findById(user.userId);
      if (!u) throw new ServiceError('UNAUTHORIZED', 'This account no longer exists.');
      return { id: u.id, email: u.email, created_at: new Date(u.createdAt).toISOString() };
    },
  },
  {
    method: 'delete',
    path: '/me',
    summary: 'Delete the account and everything in it (confirm with the password)',
    auth: 'user',
    body: s.deleteAccountBody,
    handler: async ({ services, user, body }) => {
      const files = (await services.store.photos.listByUser(user.userId)).map((p) => p.file);
      await services.accounts.deleteAccount(user, (body as { password: string }).password);
      await services.photos.remove(files);
    },
  },
  {
    method: 'get',
    path: '/agents',
    summary: 'List agents with derived status, unread counts and colours',
    auth: 'user',
    response: s.agentList,
    handler: async ({ services, user }) => ({ agents: await services.agents.list(user.userId) }),
  },
  {
    method: 'post',
    path: '/agents',
    summary: 'Create an agent and its 6-digit pairing code',
    auth: 'user',
    body: s.createAgentBody,
    response: s.createdAgent,
    status: 201,
    handler: ({ services, user, body }) => services.agents.create(user.userId, body as { name: string }),
  },
  {
    method: 'put',
    path: '/agents/order',
    summary: 'Reorder agents (list every agent id once)',
    auth: 'user',
    body: s.reorderBody,
    response: s.agentList,
    handler: async ({ services, user, body }) => ({
      agents: await services.agents.reorder(user.userId, (body as { ids: string[] }).ids),
    }),
  },
  {
    method: 'get',
    path: '/agents/:agentId',
    summary: 'One agent',
    auth: 'user',
    response: s.agentView,
    handler: ({ services, user, params }) => services.agents.get(user.userId, agentOf(params)),
  },
  {
    method: 'patch',
    path: '/agents/:agentId',
    summary: 'Rename, recolor, restyle, mute, move or make default',
    auth: 'user',
    body: s.updateAgentBody,
    response: s.agentView,
    handler: ({ services, user, params, body }) =>
      services.agents.update(user.userId, agentOf(params), body as Record<string, unknown>),
  },
  {
    method: 'delete',
    path: '/agents/:agentId',
    summary: 'Delete an agent and its thread (the default passes to the first remaining agent)',
    auth: 'user',
    handler: async ({ services, user, params }) => {
      const agentId = agentOf(params);
      await services.agents.get(user.userId, agentId);
      const files = (await services.store.photos.listByUser(user.userId)).filter(
        (p) => p.agentId === agentId,
      );
      await services.agents.delete(user.userId, agentId);
      await services.photos.remove(files.map((p) => p.file));
    },
  },
  {
    method: 'post',
    path: '/agents/:agentId/code',
    summary: 'Mint a new pairing code (the unused ones stop working)',
    auth: 'user',
    response: s.mintedCode,
    status: 201,
    handler: ({ services, user, params }) => services.agents.mintCode(user.userId, agentOf(params)),
  },
  {
    method: 'get',
    path: '/agents/:agentId/messages',
    summary: 'Read a page of the thread (newest page marks it read)',
    auth: 'user',
    query: s.pageQuery,
    response: s.threadPage,
    handler: ({ services, user, params, query }) =>
      services.threads.page(user.userId, agentOf(params), query as { before?: number; limit?: number }),
  },
  {
    method: 'post',
    path: '/agents/:agentId/messages',
    summary: 'Send typed text (optionally with uploaded photos)',
    auth: 'user',
    body: s.sayBody,
    response: s.messageView,
    status: 201,
    handler: ({ services, user, params, body }) =>
      services.threads.say(user.userId, agentOf(params), body as { text: string }),
  },
  {
    method: 'post',
    path: '/agents/:agentId/taps',
    summary: 'Tap a component of a screen in this thread',
    auth: 'user',
    body: s.tapBody,
    response: s.tapResult,
    status: 201,
    handler: ({ services, user, params, body }) =>
      services.threads.tap(user.userId, agentOf(params), body as { screen_id: string; event: unknown }),
  },
  {
    method: 'put',
    path: '/agents/:agentId/presence',
    summary: 'Mark the thread open or closed on this phone (open threads do not buzz)',
    auth: 'user',
    body: s.presenceBody,
    response: s.presenceBody,
    handler: ({ services, user, params, body }) =>
      services.threads.setPresence(user.userId, agentOf(params), (body as { open: boolean }).open),
  },
  {
    method: 'post',
    path: '/agents/:agentId/read',
    summary: 'Mark the thread read up to a message seq',
    auth: 'user',
    body: s.readBody,
    handler: async ({ services, user, params, body }) => {
      await services.threads.markRead(user.userId, agentOf(params), (body as { seq: number }).seq);
    },
  },
  {
    method: 'post',
    path: '/agents/:agentId/photos',
    summary: 'Upload a photo (raw image body, up to 10 MB) to attach to an answer',
    auth: 'user',
    raw: { request: 'image/*' },
    response: s.photoCreated,
    status: 201,
    handler: async ({ services, user, params, req }) => {
      const type = String(req.headers['content-type'] ?? '')
        .split(';')[0]!
        .trim()
        .toLowerCase();
      if (!PHOTO_TYPES[type]) {
        throw new ServiceError('INVALID_INPUT', `Send the photo as ${Object.keys(PHOTO_TYPES).join(', ')}.`, {
          field: 'content-type',
        });
      }
      const bytes = req.body as unknown;
      if (!Buffer.isBuffer(bytes) || bytes.length === 0) {
        throw new ServiceError(
          'INVALID_INPUT',
          `The body must be the image bytes, up to ${MAX_PHOTO_BYTES} bytes.`,
          {
            field: 'body',
          },
        );
      }
      const agentId = agentOf(params);
      await services.agents.get(user.userId, agentId);
      const file = await services.photos.save(bytes, type);
      const photo = await services.threads.addPhoto(user.userId, agentId, {
        file,
        contentType: type,
        bytes: bytes.length,
      });
      return { id: photo.id, url: services.photos.links([photo])[0]! };
    },
  },
  {
    method: 'get',
    path: '/photos/:photoId',
    summary: 'A photo, through a signed link valid 1 hour',
    auth: 'signed',
    query: s.photoQuery,
    raw: { response: 'image/*' },
    handler: async ({ services, params, query, res }) => {
      const photoId = params.photoId!;
      const q = query as { exp: string; sig: string };
      const photo = services.photos.verify(photoId, q.exp, q.sig)
        ? await services.store.photos.get(photoId)
        : null;
      if (!photo) throw new ServiceError('NOT_FOUND', 'This photo link is unknown or expired.');
      res.setHeader('content-type', photo.contentType);
      res.setHeader('cache-control', 'private, max-age=3600');
      await new Promise<void>((resolve, reject) => {
        const stream = fs.createReadStream(services.photos.pathOf(photo.file));
        stream.on('error', reject).on('end', () => resolve());
        stream.pipe(res);
      });
      return undefined;
    },
  },
  {
    method: 'get',
    path: '/connections',
    summary: 'Paired computers and tool connections',
    auth: 'user',
    response: s.connectionList,
    handler: async ({ services, user }) => ({ connections: await services.agents.connections(user.userId) }),
  },
  {
    method: 'delete',
    path: '/connections/:connectorId',
    summary: 'Remove a connection: its tokens stop at once',
    auth: 'user',
    handler: async ({ services, user, params }) => {
      await services.agents.removeConnection(user.userId, params.connectorId!);
    },
  },
  {
    method: 'get',
    path: '/oauth/requests/:requestId',
    summary: 'An app asking to sign in: its name, where it returns to, and the state of the request',
    auth: 'user',
    response: s.oauthRequestView,
    handler: ({ services, user, params }) => services.oauth.personView(user.userId, params.requestId!),
  },
  {
    method: 'post',
    path: '/oauth/requests/:requestId/decision',
    summary: 'Allow (as a new or an existing agent) or deny an app asking to sign in',
    auth: 'user',
    body: s.oauthDecisionBody,
    response: s.oauthRequestView,
    handler: ({ services, user, params, body }) =>
      services.oauth.decide(
        user.userId,
        params.requestId!,
        body as { decision: 'allow' | 'deny'; agent_id?: string; agent_name?: string },
      ),
  },
  {
    method: 'get',
    path: '/stream',
    summary:
      "Server-sent events for the person's threads (message, agents, read); token also as ?access_token=",
    auth: 'user',
    raw: { response: 'text/event-stream' },
    handler: async (ctx) => {
      openThreadStream(ctx);
      return undefined;
    },
  },
];
