// The person's API as data: every route with its method, path, auth, zod schemas and handler. The router,
// the OpenAPI document and the isolation test all read this one table.
import type { AppPrincipal } from '@screen-service/service-core';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { Services } from '../services.js';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RouteContext {
  services: Services;
  /** Present on `auth: 'user'` routes. */
  user: AppPrincipal;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  req: Request;
  res: Response;
}

export interface RouteDef {
  method: Method;
  /** Express path under the API prefix, e.g. `/agents/:agentId`. */
  path: string;
  summary: string;
  /** `user`: Bearer app access token; `none`: public; `signed`: a signed link is the credential. */
  auth: 'user' | 'none' | 'signed';
  body?: z.ZodType;
  query?: z.ZodType;
  response?: z.ZodType;
  /** Success status; default 200 (204 when there is no response schema). */
  status?: number;
  /** Non-JSON exchange, documented by content type. */
  raw?: { request?: string; response?: string };
  /** Returns the JSON body, or undefined when the handler wrote the response itself. */
  handler(ctx: RouteContext): Promise<unknown>;
}

export const API_PREFIX = '/functions/v1/svc-app';
