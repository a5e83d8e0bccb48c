// Web Push on the person's API: the settings page's status, and each device's subscription (issue 17).
import { defineRoute } from '../route.js';
import * as s from '../schemas.js';

export const pushRoutes = [
  defineRoute({
    method: 'get',
    path: '/push',
    summary: "Whether the service sends notifications, its VAPID public key and this person's devices",
    auth: 'user',
    response: s.pushStatus,
    handler: ({ services, user }) => services.push.status(user.userId),
  }),
  defineRoute({
    method: 'put',
    path: '/push/subscriptions',
    summary: "Register this device's push subscription (PushSubscription.toJSON())",
    auth: 'user',
    body: s.pushSubscribeBody,
    response: s.pushSubscriptionView,
    handler: ({ services, user, body }) => services.push.subscribe(user.userId, body),
  }),
  defineRoute({
    method: 'put',
    path: '/push/settings',
    summary: 'Quiet hours, urgent asks and how often an agent may buzz without asking anything',
    auth: 'user',
    body: s.pushSettingsBody,
    response: s.pushSettings,
    handler: ({ services, user, body }) => services.push.saveSettings(user.userId, body),
  }),
  defineRoute({
    method: 'put',
    path: '/presence',
    summary: 'The app is in front of the person on this device (renewed every minute while visible): no buzz',
    auth: 'user',
    body: s.activeBody,
    response: s.activeBody.pick({ active: true }),
    handler: ({ services, user, body }) => services.push.setActive(user.userId, body.active, body.device),
  }),
  defineRoute({
    method: 'post',
    path: '/push/answer',
    summary:
      "Answer a screen from its notification's action: the push's single-use answer token is the credential",
    auth: 'none',
    body: s.pushAnswerBody,
    response: s.pushAnswerResult,
    status: 201,
    handler: ({ services, body }) => services.push.answer(body),
  }),
  defineRoute({
    method: 'delete',
    path: '/push/subscriptions',
    summary: "Remove this device's push subscription (the Notifications switch turned off)",
    auth: 'user',
    body: s.pushUnsubscribeBody,
    handler: async ({ services, user, body }) => {
      await services.push.unsubscribe(user.userId, body.endpoint);
      return undefined;
    },
  }),
];
