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
    tokenInQuery: true,
    handler: ({ services, user, req, res, shutdown, stillSignedIn }) => {
      // The stream ends with its credential: sign-out or expiry, checked before each event and keep-alive.
      openThreadStream({
        notifier: services.notifier,
        userId: user.userId,
        req,
        res,
        shutdown,
        stillSignedIn,
      });
      return undefined;
    },
  }),
];
