// One route of the person's API as data: method, path, auth and zod schemas, with a handler whose body,
// query, path parameters and return value are typed from those schemas. The router, the OpenAPI document
// and the isolation test all read the same list.

import type { ServerResponse } from 'node:http';
import type { AppPrincipal } from '@screen-service/registry/accounts';
import { MOUNTS } from '@screen-service/registry/mounts';
import type { z } from 'zod';
import type { PersonRequest } from './http-answers.js';
import type { JsonText } from './json-text.js';
import type { PersonApiServices } from './services.js';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** `user`: Bearer app access token; `none`: public; `signed`: a signed link is the credential. */
export type RouteAuth = 'user' | 'none' | 'signed';

/** The names of `:params` in an Express path, e.g. `'/agents/:agentId/code'` → `'agentId'`. */
export type PathParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** A handler's answer: the body (typed by `response`), or that body already as {@link JsonText}. */
type Answer<R> = R extends z.ZodType ? z.input<R> | JsonText : undefined;

/** What a handler receives. `user` is present exactly on `auth: 'user'` routes. */
export interface RouteContext<P extends string, B, Q, A extends RouteAuth> {
  services: PersonApiServices;
  user: A extends 'user' ? AppPrincipal : undefined;
  params: Record<PathParamNames<P>, string>;
  query: Out<Q>;
  body: Out<B>;
  /** Node's request (ADR 0303: no Express object on the person's API). */
  req: PersonRequest;
  res: ServerResponse;
  /** Aborted when the server begins shutting down: streams end at once. */
  shutdown: AbortSignal;
  /** Checks the request's sign-in again (a long-lived answer such as the stream asks before each event). */
  stillSignedIn: () => Promise<boolean>;
  /** The caller's address for throttles: forwarded addresses count only from the server's trusted proxies. */
  clientAddr: () => string;
}

/** An optional request header of a route, as the OpenAPI document states it. */
export interface RouteHeader {
  description: string;
  /** The value's shape as a regular expression (JSON Schema `pattern`). */
  pattern: string;
  /** A 409 answer this header can cause, documented with the route's responses. */
  conflict?: string;
}

/** A route before its types are erased; see {@link defineRoute}. */
export interface RouteSpec<
  P extends string,
  A extends RouteAuth,
  B extends z.ZodType | undefined,
  Q extends z.ZodType | undefined,
  R extends z.ZodType | undefined,
> {
  method: Method;
  /** Express path under the API prefix, e.g. `/agents/:agentId`. */
  path: P;
  summary: string;
  auth: A;
  body?: B;
  query?: Q;
  response?: R;
  /** Success status; default 200 (204 when there is no response schema). */
  status?: number;
  /** Non-JSON exchange, documented by content type. */
  raw?: { request?: string; response?: string };
  /** The access token may come as `?access_token=` (only the stream: EventSource cannot set headers). */
  tokenInQuery?: boolean;
  /** Request headers the handler reads, documented in the OpenAPI document (the handler checks them). */
  headers?: Record<string, RouteHeader>;
  /**
   * Returns the JSON body (typed by `response`; or as {@link JsonText} when the handler serialized it), or
   * undefined when there is no response schema or the handler wrote the response itself (`raw.response`).
   */
  handler(ctx: RouteContext<P, B, Q, A>): Promise<Answer<R>> | Answer<R>;
}

/** A route with its types erased, as the router and the OpenAPI builder see it. */
export interface RouteDef {
  method: Method;
  path: string;
  summary: string;
  auth: RouteAuth;
  body?: z.ZodType | undefined;
  query?: z.ZodType | undefined;
  response?: z.ZodType | undefined;
  status?: number | undefined;
  raw?: { request?: string; response?: string } | undefined;
  tokenInQuery?: boolean | undefined;
  headers?: Record<string, RouteHeader> | undefined;
  handler(ctx: {
    services: PersonApiServices;
    user: AppPrincipal | undefined;
    params: Record<string, string>;
    query: unknown;
    body: unknown;
    req: PersonRequest;
    res: ServerResponse;
    shutdown: AbortSignal;
    stillSignedIn: () => Promise<boolean>;
    clientAddr: () => string;
  }): Promise<unknown> | unknown;
}

/**
 * Declares a route; the handler's `body`, `query`, `params` and return value are checked against the
 * schemas at compile time, so no handler casts its input.
 *
 * @example
 * ```ts
 * const rename = defineRoute({
 *   method: 'patch', path: '/agents/:agentId', summary: 'Rename', auth: 'user',
 *   body: z.object({ name: z.string() }), response: agentView,
 *   handler: ({ services, user, params, body }) => services.agents.update(user.userId, params.agentId, body),
 * });
 * ```
 */
export function defineRoute<
  const P extends string,
  const A extends RouteAuth,
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  R extends z.ZodType | undefined = undefined,
>(spec: RouteSpec<P, A, B, Q, R>): RouteDef {
  return spec as unknown as RouteDef;
}

/** Where the person's API is mounted (doc1: `{base}/functions/v1/svc-app`). */
export const API_PREFIX = MOUNTS.app;
