// Every route of the person's API, in the order the OpenAPI document lists them.
import type { RouteDef } from '../route.js';
import { agentRoutes } from './agents.js';
import { authRoutes } from './auth.js';
import { connectionRoutes } from './connections.js';
import { nativeRoutes } from './native.js';
import { photoRoutes } from './photos.js';
import { pushRoutes } from './push.js';
import { shareRoutes } from './shares.js';
import { streamRoutes } from './stream.js';
import { tableRoutes } from './tables.js';
import { threadRoutes } from './threads.js';

/** The route table: the router, `/openapi.json` and the isolation test read this one list. */
export const personRoutes: readonly RouteDef[] = Object.freeze([
  ...authRoutes,
  ...agentRoutes,
  ...threadRoutes,
  ...photoRoutes,
  ...connectionRoutes,
  ...tableRoutes,
  ...nativeRoutes,
  ...pushRoutes,
  ...shareRoutes,
  ...streamRoutes,
]);
