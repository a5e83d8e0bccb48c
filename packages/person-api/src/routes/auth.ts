// Accounts: sign up, sign in, refresh, sign out, the account's own view and its deletion.
import { defineRoute } from '../route.js';
import * as s from '../schemas.js';

export const authRoutes = [
  defineRoute({
    method: 'post',
    path: '/auth/signup',
    summary: 'Create an account and sign in',
    auth: 'none',
    body: s.credentialsBody,
    response: s.sessionTokens,
    status: 201,
    handler: ({ services, body, clientAddr }) =>
      services.accounts.signUp({ ...body, clientAddr: clientAddr() }),
  }),
  defineRoute({
    method: 'post',
    path: '/auth/signin',
    summary: 'Sign in with email and password',
    auth: 'none',
    body: s.credentialsBody,
    response: s.sessionTokens,
    handler: ({ services, body, clientAddr }) =>
      services.accounts.signIn({ ...body, clientAddr: clientAddr() }),
  }),
  defineRoute({
    method: 'post',
    path: '/auth/refresh',
    summary: 'Trade a refresh token (usable once) for new tokens',
    auth: 'none',
    body: s.refreshBody,
    response: s.sessionTokens,
    handler: ({ services, body }) => services.accounts.refresh(body.refresh_token),
  }),
  defineRoute({
    method: 'post',
    path: '/auth/signout',
    summary: 'End this sign-in (access and refresh tokens stop at once)',
    auth: 'user',
    handler: async ({ services, user }) => {
      await services.accounts.signOut(user);
      return undefined;
    },
  }),
  defineRoute({
    method: 'post',
    path: '/auth/signout-everywhere',
    summary:
      "End every sign-in of the account on every device (this one too) and forget its devices' push subscriptions",
    auth: 'user',
    handler: async ({ services, user }) => {
      await services.accounts.signOutEverywhere(user);
      return undefined;
    },
  }),
  defineRoute({
    method: 'get',
    path: '/app-config',
    summary: "The operator's settings the app uses (the image CDN for image prompt=)",
    auth: 'user',
    response: s.appConfig,
    handler: ({ services }) => ({ image_cdn: services.appConfig?.imageCdn ?? null }),
  }),
  defineRoute({
    method: 'get',
    path: '/me',
    summary: 'The signed-in account',
    auth: 'user',
    response: s.me,
    handler: ({ services, user }) => services.accounts.me(user.userId),
  }),
  defineRoute({
    method: 'put',
    path: '/me/time-zone',
    summary:
      "The time zone the person's tables resolve today and now in: a device's report, or the person's choice",
    auth: 'user',
    body: s.timeZoneBody,
    response: s.timeZone,
    handler: ({ services, user, body }) => services.accounts.setTimeZone(user.userId, body),
  }),
  defineRoute({
    method: 'delete',
    path: '/me',
    summary: 'Delete the account and everything in it (confirm with the password)',
    auth: 'user',
    body: s.deleteAccountBody,
    handler: async ({ services, user, body }) => {
      await services.accounts.deleteAccount(user, body.password);
      return undefined;
    },
  }),
];
