// GET /stream: the person's live events (Server-Sent Events).
import { defineRoute } from '../route.js';
import { openThreadStream } from '../thread-stream.js';

export const streamRoutes = [
  defineRoute({
    method: 'get',
    path: '/stream',
    summary:
      "Server-sent events for the person's threads (message, agents, read); token also as ?access_token=",
    auth: 'user',
    raw: { response: 'text/event-stream' },
    handler: ({ services, user, req, res, shutdown }) => {
      openThreadStream({ notifier: services.notifier, userId: user.userId, req, res, shutdown });
      return undefined;
    },
  }),
];
