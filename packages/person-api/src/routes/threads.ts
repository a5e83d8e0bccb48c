// One agent's thread: read a page, send text, tap, presence and read marks.
import { sendRead } from '../http-answers.js';
import { JsonText } from '../json-text.js';
import { defineRoute } from '../route.js';
import * as s from '../schemas.js';

export const threadRoutes = [
  defineRoute({
    method: 'get',
    path: '/agents/:agentId/messages',
    summary: 'Read a page of the thread (newest page marks it read)',
    auth: 'user',
    query: s.pageQuery,
    response: s.threadPage,
    // Built as JSON text (screens' views cached, ADR 0212): the same bytes JSON.stringify(page) would give.
    handler: async ({ services, user, params, query }) =>
      new JsonText(await services.threads.pageText(user.userId, params.agentId, query)),
  }),
  defineRoute({
    method: 'post',
    path: '/agents/:agentId/messages',
    summary: 'Send typed text (optionally with uploaded photos)',
    auth: 'user',
    body: s.sayBody,
    response: s.messageView,
    status: 201,
    handler: ({ services, user, params, body }) => services.threads.say(user.userId, params.agentId, body),
  }),
  defineRoute({
    method: 'post',
    path: '/agents/:agentId/taps',
    summary: 'Tap a component of a screen in this thread',
    auth: 'user',
    body: s.tapBody,
    response: s.tapResult,
    status: 201,
    // The receipt names the sign-in and the device the tap came through (ADR 0261).
    handler: ({ services, user, params, body }) =>
      services.threads.tap(user.userId, params.agentId, body, {
        session: user.sessionFamily,
        device: body.device ?? null,
      }),
  }),
  defineRoute({
    method: 'get',
    path: '/agents/:agentId/receipts',
    summary: "Export the thread's signed receipts as JSON Lines (verify with `svc receipts verify`)",
    auth: 'user',
    raw: { response: 'application/jsonl' },
    handler: async ({ services, user, params, req, res }) => {
      const text = await services.threads.receipts(user.userId, params.agentId);
      sendRead(req, res, 200, 'application/jsonl', text, { 'cache-control': 'no-store' });
      return undefined;
    },
  }),
  defineRoute({
    method: 'get',
    path: '/receipt-keys',
    summary: 'The public keys that sign receipts (a JWKS; retired keys stay listed)',
    auth: 'none',
    raw: { response: 'application/jwk-set+json' },
    handler: async ({ services, req, res }) => {
      const jwks = services.receiptKeys ? await services.receiptKeys() : { keys: [] };
      sendRead(req, res, 200, 'application/jwk-set+json', JSON.stringify(jwks), {
        'cache-control': 'max-age=300',
      });
      return undefined;
    },
  }),
  defineRoute({
    method: 'put',
    path: '/agents/:agentId/presence',
    summary: 'Mark the thread open or closed on this phone (open threads do not buzz)',
    auth: 'user',
    body: s.presenceBody,
    response: s.presenceBody,
    handler: ({ services, user, params, body }) =>
      services.threads.setPresence(user.userId, params.agentId, body.open, body.device),
  }),
  defineRoute({
    method: 'post',
    path: '/agents/:agentId/read',
    summary: 'Mark the thread read up to a message seq',
    auth: 'user',
    body: s.readBody,
    handler: async ({ services, user, params, body }) => {
      await services.threads.markRead(user.userId, params.agentId, body.seq);
      return undefined;
    },
  }),
];
